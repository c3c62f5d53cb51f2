import { existsSync, statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { formatError } from './report-error.js';
import { RUN_FLAGS, type FlagSpec, type RawRunFlags } from './run-flags.js';

const COMMANDS = new Set(['run', 'oauth', 'tui', 'plugins', 'help', 'autocomplete', 'commands', 'version', 'history']);
const HELP = new Set(['--help', '-h', 'help']);

function parseConfig(): ParseArgsConfig['options'] {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(RUN_FLAGS) as Array<[string, FlagSpec]>) {
    options[name] = { type: spec.type, ...(spec.char ? { short: spec.char } : {}), ...(spec.multiple ? { multiple: true } : {}) };
    if (spec.allowNo) options[`no-${name}`] = { type: 'boolean' };
  }
  return options;
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A path or URL where a command name was expected: the run reports on it (no such file, or a URL). */
function looksLikeRequestFile(arg: string): boolean {
  return /\.(http|rest|ya?ml|json)$/i.test(arg) || /[/\\]/.test(arg) || /^https?:\/\//i.test(arg);
}

/** Parses `run` argv with the same flag table as the oclif command. */
export function parseRunArgv(argv: string[]): { file: string | undefined; flags: RawRunFlags } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: parseConfig(), allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '').replace(/^Unknown option '/, "unknown flag '");
    throw new UsageError(message, { hint: 'see reqflow run --help' });
  }
  const values = parsed.values as Record<string, unknown>;
  for (const [name, spec] of Object.entries(RUN_FLAGS) as Array<[string, FlagSpec]>) {
    if (spec.allowNo && values[`no-${name}`] === true) values[name] = false;
    delete values[`no-${name}`];
    const allowed = spec.options;
    if (allowed && typeof values[name] === 'string' && !allowed.includes(values[name] as string)) {
      throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${String(values[name])}"`);
    }
  }
  if (parsed.positionals.length > 1) throw new UsageError(`unexpected argument "${parsed.positionals[1]}"`, { hint: 'run one request file at a time: reqflow run FILE' });
  return { file: parsed.positionals[0], flags: values as RawRunFlags };
}

/**
 * Decides whether argv is a plain run (`run FILE ...`, `FILE ...`, `-e x=y FILE`), which is
 * served without loading oclif: that is what keeps one GET near `node -e 0`. Anything else
 * (help, other commands, the TUI) returns undefined. (`--version` is answered by bin/run.cjs.)
 */
export function fastPathArgs(argv: string[], cwd: string): string[] | undefined {
  if (argv.length === 0 || argv.some((arg) => HELP.has(arg))) return undefined;
  if (argv[0] === 'run') return argv.slice(1);
  const first = argv[0] as string;
  // `reqflow missing.http` and `reqflow https://…` get an answer about the file or the URL, not "command not found".
  if (!first.startsWith('-')) return (!COMMANDS.has(first) && isFile(`${cwd}/${first}`)) || (first.startsWith('/') && isFile(first)) || looksLikeRequestFile(first) ? argv : undefined;
  // Flags first: a run when some argument is an existing file.
  return argv.some((arg) => !arg.startsWith('-') && isFile(arg.startsWith('/') ? arg : `${cwd}/${arg}`)) ? argv : undefined;
}

/** Returns the exit code, or undefined when oclif must handle argv. */
export async function tryFastPath(argv: string[]): Promise<number | undefined> {
  const args = fastPathArgs(argv, process.cwd());
  if (args === undefined) return undefined;
  let parsed;
  try {
    parsed = parseRunArgv(args);
  } catch (error) {
    const { text, exitCode } = formatError(error, { debug: false, secrets: new SecretRegistry() });
    process.stderr.write(text);
    return exitCode;
  }
  // The run's modules load only here: `--version` and the commands oclif serves never pay for them.
  const [{ processIo, runFileCommand }, { loadUserPlugins }] = await Promise.all([import('./run-file.js'), import('../core/third-party.js')]);
  const io = processIo();
  return runFileCommand(parsed.file, parsed.flags, io, (warn) => loadUserPlugins(warn, io.env));
}
