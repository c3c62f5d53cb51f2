import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { formatError } from './report-error.js';
import { RUN_FLAGS, type FlagSpec, type RawRunFlags } from './run-flags.js';
import { SEND_FLAGS, type RawSendFlags } from './send-flags.js';
import type { RawTestFlags } from './test-flags.js';
import { isMethodAndUrl, isUrl, notARequestFileError, unknownFlagError } from './usage-errors.js';

/** reqflow's own commands: a file of that name in the current folder does not hide them. */
const COMMANDS = new Set(['run', 'send', 'test', 'tui', 'import', 'mock', 'oauth', 'cookies', 'plugins', 'help', 'autocomplete', 'commands', 'version', 'history']);
const HELP = new Set(['--help', '-h', 'help']);

type FlagTable = Record<string, FlagSpec>;

function parseConfig(table: FlagTable = RUN_FLAGS): ParseArgsConfig['options'] {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(table)) {
    options[name] = { type: spec.type, ...(spec.char ? { short: spec.char } : {}), ...(spec.multiple ? { multiple: true } : {}) };
    if (spec.allowNo) options[`no-${name}`] = { type: 'boolean' };
  }
  return options;
}

function kindOf(cwd: string, arg: string): 'file' | 'folder' | undefined {
  try {
    const stat = statSync(resolve(cwd, arg), { throwIfNoEntry: false });
    return stat?.isFile() ? 'file' : stat?.isDirectory() ? 'folder' : undefined;
  } catch {
    return undefined; // a path through a file, a name too long: nothing there
  }
}

/** A path or URL where a command name was expected: the run reports on it (no such file, or a URL). */
function looksLikeRequestFile(arg: string): boolean {
  return /\.(http|rest|ya?ml|json)$/i.test(arg) || /[/\\]/.test(arg) || isUrl(arg);
}

/** Parses a command's argv with the flag table its oclif command is built from. */
function parseWithTable(argv: string[], table: FlagTable, command: string): { positionals: string[]; values: Record<string, unknown> } {
  // No flag at all (`reqflow run one.http`): what parseArgs would return, without loading and
  // running it (~1 ms of a plain GET's start-up). `-` alone is stdin, a positional.
  if (argv.every((arg) => arg === '-' || !arg.startsWith('-'))) return { positionals: [...argv], values: Object.create(null) as Record<string, unknown> };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: parseConfig(table), allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown !== undefined) throw unknownFlagError(unknown, flagNames(table), command);
    // `--timeout -5`: Node says it in three lines; one, with the form that works.
    const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message)?.[1];
    if (ambiguous !== undefined) throw new UsageError(`${ambiguous.split(',').pop()?.trim() ?? ambiguous} takes a value, and the next argument starts with a dash`, { hint: `for a value that starts with a dash, write ${ambiguous.split(',').pop()?.trim() ?? ambiguous}=VALUE` });
    throw new UsageError(message.split('\n')[0] ?? message, { hint: `see reqflow ${command} --help` });
  }
  const values = parsed.values as Record<string, unknown>;
  for (const [name, spec] of Object.entries(table)) {
    if (spec.allowNo && values[`no-${name}`] === true) values[name] = false;
    delete values[`no-${name}`];
    const allowed = spec.options;
    if (allowed && typeof values[name] === 'string' && !allowed.includes(values[name] as string)) {
      throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${String(values[name])}"`);
    }
  }
  return { positionals: parsed.positionals, values };
}

/** Parses `run` argv with the same flag table as the oclif command. */
export function parseRunArgv(argv: string[]): { file: string | undefined; flags: RawRunFlags } {
  const { positionals, values } = parseWithTable(argv, RUN_FLAGS, 'run');
  const [first, second] = positionals;
  if (isMethodAndUrl(first, second)) throw notARequestFileError(second as string, first);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, { hint: 'run one request file at a time: reqflow run FILE' });
  return { file: positionals[0], flags: values as RawRunFlags };
}

/** The long flags of a table, `--no-` forms included, for "did you mean". */
function flagNames(table: FlagTable): string[] {
  return Object.entries(table).flatMap(([name, spec]) => (spec.allowNo ? [name, `no-${name}`] : [name]));
}

/** What names a request file (so the run says what is wrong with it), not a folder. */
function namesRequestFile(arg: string, cwd: string): boolean {
  if (arg === '-') return true; // stdin
  const kind = kindOf(cwd, arg);
  return kind === 'file' || (kind === undefined && looksLikeRequestFile(arg));
}

/** The commands served without oclif, whatever their arguments (`--help` aside). */
const FAST_COMMANDS = new Set(['run', 'send', 'test'] as const);
type FastCommand = typeof FAST_COMMANDS extends Set<infer T> ? T : never;

/**
 * Decides whether argv is a plain run (`run FILE ...`, `FILE ...`, `-e x=y FILE`), a `send` or a
 * `test`, which are served without loading oclif: that is what keeps one GET near `node -e 0`,
 * and `reqflow test` in a CI job a third of the time oclif's start-up took.
 * Anything else (help, other commands, a folder or flags alone for the UI) returns undefined.
 * (`--version` is answered by bin/run.cjs.)
 */
export function fastPathArgs(argv: string[], cwd: string): { command: FastCommand; args: string[] } | undefined {
  if (argv.length === 0 || argv.some((arg) => HELP.has(arg))) return undefined;
  if (FAST_COMMANDS.has(argv[0] as FastCommand)) return { command: argv[0] as FastCommand, args: argv.slice(1) };
  const first = argv[0] as string;
  // `reqflow missing.http`, `reqflow https://…` and `reqflow GET https://…` get an answer about
  // the file or the URL, not "command not found". A folder is the UI's (src/cli/oclif-main.ts).
  if (!first.startsWith('-') || first === '-') return !COMMANDS.has(first) && (namesRequestFile(first, cwd) || isMethodAndUrl(first, argv[1])) ? { command: 'run', args: argv } : undefined;
  // Flags first: a run when an argument (not a flag's value) names a request file; else the UI's flags.
  const { positionals } = parseArgs({ args: argv, options: parseConfig(), allowPositionals: true, strict: false });
  return positionals.some((arg) => namesRequestFile(arg, cwd)) ? { command: 'run', args: argv } : undefined;
}

/** What a parsed command runs with, once the run's modules are loaded. */
type RunModules = typeof import('./run-file.js') & { io: import('./run-file.js').CliIo; plugins: (warn: (message: string) => void) => Promise<import('../core/registry.js').PluginEntry[]> };

/** Returns the exit code, or undefined when oclif must handle argv. */
export async function tryFastPath(argv: string[]): Promise<number | undefined> {
  const route = fastPathArgs(argv, process.cwd());
  if (route === undefined) return undefined;
  let run: (modules: RunModules) => Promise<number>;
  try {
    if (route.command === 'test') {
      // Its flag table and runner are read only by `reqflow test` (from extras.cjs when bundled).
      const [{ TEST_FLAGS }, { testCommand }] = await Promise.all([import('./test-flags.js'), import('./test-files.js')]);
      const { positionals, values } = parseWithTable(route.args, TEST_FLAGS, 'test');
      run = ({ io, plugins }) => testCommand(positionals, values as RawTestFlags, io, plugins);
    } else if (route.command === 'send') {
      const { positionals, values } = parseWithTable(route.args, SEND_FLAGS, 'send');
      const flags = values as RawSendFlags;
      run = async ({ runSourceCommand, io, plugins }) => {
        const { sendSource } = await import('./send-request.js');
        return runSourceCommand(() => sendSource(positionals, flags, io), flags, io, plugins);
      };
    } else {
      const { file, flags } = parseRunArgv(route.args);
      run = ({ runFileCommand, io, plugins }) => runFileCommand(file, flags, io, plugins);
    }
  } catch (error) {
    const { text, exitCode } = formatError(error, { debug: false, secrets: new SecretRegistry() });
    process.stderr.write(text);
    return exitCode;
  }
  // The run's modules load only here: `--version` and the commands oclif serves never pay for them.
  const [runFile, { loadUserPlugins }] = await Promise.all([import('./run-file.js'), import('../pipeline/installed-plugins.js')]);
  const io = runFile.processIo();
  return run({ ...runFile, io, plugins: (warn) => loadUserPlugins(warn, io.env) });
}

