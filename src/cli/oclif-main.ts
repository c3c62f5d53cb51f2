/**
 * What bin/run.cjs does not serve on its fast path goes through oclif, from here: reqflow's
 * default command (a folder, or flags with no command, open the UI) and its error style — one
 * `reqflow: …` line, a `hint:`, the documented exit code — for oclif's own errors too (unknown
 * command or flag, a missing or extra argument), which oclif would print as ` ›   Error: …`.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Config, flush, run } from '@oclif/core';
import { ExitCode, ReqflowError, UsageError, isReqflowError, type ExitCodeValue } from '../core/errors/index.js';
import { formatError } from './report-error.js';
import { helpHint, unknownFlagError } from './usage-errors.js';

/** Flags that are answers of their own, not the UI's (`-h` is oclif's too: package.json additionalHelpFlags). */
const NOT_THE_UI = new Set(['--help', '-h', '--version']);

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * oclif's argv for reqflow's: `tui` in front where no command is named — nothing at all (oclif
 * 4 would show help), flags alone (`reqflow --env dev`), or a folder no command is named after
 * (`reqflow api/`; only then is oclif's config loaded here, to ask).
 */
async function withDefaultCommand(argv: string[], root: string, cwd: string): Promise<{ args: string[]; config: Config | string }> {
  const first = argv[0];
  if (first === undefined) return { args: ['tui'], config: root };
  if (first.startsWith('-')) return { args: NOT_THE_UI.has(first) ? argv : ['tui', ...argv], config: root };
  if (!isFolder(resolve(cwd, first))) return { args: argv, config: root };
  const config = await Config.load(root);
  return { args: config.findCommand(first) || config.findTopic(first) ? argv : ['tui', ...argv], config };
}

/** The parts of oclif's errors read here (its parser's error classes are not exported). */
interface OclifError extends Error {
  code?: string;
  oclif?: { exit?: number };
  /** Nonexistent flags (strings) or unexpected arguments (strings) or missing arguments (definitions). */
  flags?: unknown[];
  args?: unknown[];
  parse?: { input?: { flags?: Record<string, { allowNo?: boolean }>; context?: { id?: string } } };
}

/** Text of an oclif message as one line: no `See more help` line, no colours, no capital for a plain word. */
function oneLine(message: string): string {
  const text = message
    // eslint-disable-next-line no-control-regex -- oclif colours parts of its messages
    .replace(/\u001B\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'See more help with --help')
    .join(' ');
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** An oclif error as reqflow reports it. */
function asReqflowError(error: unknown): unknown {
  if (isReqflowError(error) || !(error instanceof Error)) return error;
  const oclif = error as OclifError;
  const input = oclif.parse?.input;
  if (input) {
    const command = (input.context?.id ?? '').replaceAll(':', ' ');
    const help = helpHint(command);
    const flag = oclif.flags?.find((value): value is string => typeof value === 'string');
    if (flag !== undefined) {
      const known = Object.entries(input.flags ?? {}).flatMap(([name, definition]) => (definition.allowNo ? [name, `no-${name}`] : [name]));
      return unknownFlagError(flag, known, command);
    }
    const extra = oclif.args?.find((value): value is string => typeof value === 'string');
    if (extra !== undefined) return new UsageError(`unexpected argument "${extra}"`, { hint: help });
    const missing = oclif.args?.map((arg) => (arg as { name?: string }).name?.toUpperCase()).filter(Boolean);
    if (missing !== undefined && missing.length > 0) return new UsageError(`missing ${missing.join(', ')}`, { hint: `usage: ${['reqflow', command, ...missing].filter(Boolean).join(' ')} (${help})` });
    return new UsageError(oneLine(oclif.message), { hint: help });
  }
  const exit = oclif.oclif?.exit;
  if (exit === undefined) return error; // not oclif's: a bug, exit 70 (formatError)
  // A plugin command's own error (`plugins install` of a missing package): its message and code.
  return exit === ExitCode.usage ? new UsageError(oneLine(oclif.message)) : new ReqflowError(oneLine(oclif.message), { exitCode: exit as ExitCodeValue });
}

/**
 * Runs argv through oclif. Undefined when the command ran (it set process.exitCode itself),
 * else the exit code of the error it printed. Never throws.
 */
export async function runOclif(argv: string[], root: string): Promise<number | undefined> {
  try {
    const { args, config } = await withDefaultCommand(argv, root, process.cwd());
    await run(args, config);
    await flush();
    return undefined;
  } catch (error) {
    const oclif = error as OclifError;
    // `this.exit(code)` in a command: the code, nothing to print.
    if (oclif.code === 'EEXIT') return oclif.oclif?.exit ?? 0;
    const { text, exitCode } = formatError(asReqflowError(error), { debug: argv.includes('--debug') || process.env.REQFLOW_DEBUG === '1' });
    process.stderr.write(text);
    return exitCode;
  }
}
