import { ExitCode } from './exit-codes.js';
import { ReqflowError } from './reqflow-error.js';

type Extra = { hint?: string; cause?: unknown; atRequest?: true };

/** Bad flags, a malformed request file, an invalid profile file: exit 2. */
export class UsageError extends ReqflowError {
  constructor(message: string, extra: Extra = {}) {
    super(message, { ...extra, exitCode: ExitCode.usage });
    this.name = 'ReqflowError';
  }
}

/** A request file that cannot be parsed; the message names file, line and column. */
export class ParseError extends UsageError {
  constructor(file: string, line: number, column: number, what: string, extra: Extra = {}) {
    super(`${file}:${line}:${column}: ${what}`, extra);
  }
}

/** A request file with no request in it: an error to run, not to `# @import` (a file of `@variables` and helpers). */
export class NoRequestsError extends UsageError {
  constructor(file: string) {
    super(`${file}: no requests found`, { hint: 'write at least one request line, e.g. GET https://example.com' });
  }
}

/** A variable that nothing defines, a failing shell value, a prompt without a terminal: exit 3. */
export class VariableError extends ReqflowError {
  constructor(message: string, extra: Extra = {}) {
    super(message, { ...extra, exitCode: ExitCode.variable });
  }
}

/** Refused, DNS, time-out, reset: exit 4. */
export class NetworkError extends ReqflowError {
  constructor(message: string, extra: Extra = {}) {
    super(message, { ...extra, exitCode: ExitCode.network });
  }
}

/**
 * A stream reqflow stopped reading because the server broke its rules (an event past the
 * limit, a malformed WebSocket frame): exit 4 like a dropped connection, but said as what it is.
 */
export class StreamViolation extends NetworkError {}

/** Certificates, keys, trust, hostname: exit 5. */
export class TlsError extends ReqflowError {
  constructor(message: string, extra: Extra = {}) {
    super(message, { ...extra, exitCode: ExitCode.tls });
  }
}

/** OAuth login, refresh, token endpoint failures: exit 6. */
export class AuthFlowError extends ReqflowError {
  constructor(message: string, extra: Extra = {}) {
    super(message, { ...extra, exitCode: ExitCode.auth });
  }
}

/** A plugin that threw while handling a request: exit 70, naming the plugin and stage. */
export class PluginError extends ReqflowError {
  readonly plugin: string;
  readonly stage: string;
  constructor(plugin: string, stage: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`plugin "${plugin}" failed in the ${stage} stage: ${why}`, {
      exitCode: ExitCode.internal,
      hint: 'this is a bug in the plugin; run with --debug for its stack trace',
      cause,
    });
    this.plugin = plugin;
    this.stage = stage;
  }
}

/** The calls that only read: a refusal there is no failed write. */
const READING = new Set(['read', 'scandir', 'opendir', 'readlink', 'realpath', 'stat', 'lstat', 'access']);

/** A file-system error code in words, for every message that names one (sessions, the output, the files reqflow writes). */
const FILE_ERROR_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a parent of it is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
};

export function fileErrorWords(code: string | undefined): string | undefined {
  return code === undefined ? undefined : FILE_ERROR_WORDS[code];
}

/** The codes that are the machine's state (a full or read-only disk, a refused permission) rather than a bug. */
const REFUSALS = new Set(['EACCES', 'EPERM', 'ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

/**
 * A full disk, a read-only one, a folder without write permission: the machine's state, said in
 * one line naming the path (exit 74, as for the output), never "a bug in reqflow".
 */
function fileSystemRefusal(cause: unknown): ReqflowError | undefined {
  const { code, path, dest, syscall } = (cause ?? {}) as NodeJS.ErrnoException & { dest?: string };
  const why = typeof code === 'string' && REFUSALS.has(code) ? fileErrorWords(code) : undefined;
  if (why === undefined || typeof path !== 'string') return undefined;
  // `open` serves reading and writing alike: said as it is.
  const verb = READING.has(syscall ?? '') ? 'read' : syscall === 'open' ? 'open' : 'write';
  // An atomic write's temporary file (`.name.PID.HEX.tmp`, core/atomic-write.ts) is named as the file it was for.
  const shown = (dest ?? path).replace(/([/\\])\.([^/\\]+)\.\d+\.[0-9a-f]+\.tmp$/, '$1$2');
  return new ReqflowError(`cannot ${verb} ${shown}: ${why}`, { exitCode: ExitCode.output, hint: verb === 'write' ? 'nothing was changed there; free space or fix the permissions, then run it again' : 'fix the permissions (or free space), then run it again', cause });
}

/**
 * Anything that escapes without being a ReqflowError is a bug in reqflow: one line naming
 * where it happened (`where` such as `in format-yaml (parse stage)`), exit 70.
 */
export function internalError(cause: unknown, where?: string): ReqflowError {
  const refused = fileSystemRefusal(cause);
  if (refused) return refused;
  const message = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0] ?? '';
  return new ReqflowError(`internal error${where ? ` ${where}` : ''}: ${message}`, {
    exitCode: ExitCode.internal,
    hint: 'this is a bug in reqflow; run with --debug for the stack trace and report it',
    cause,
  });
}
