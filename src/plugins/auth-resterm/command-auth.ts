/**
 * resterm's `# @auth command argv=["gh","auth","token"]` (its `internal/authcmd/`): the program
 * runs without a shell, in the request file's folder, and what it prints is the token — one
 * non-empty line (`format=text`, the default), or a field of its JSON (`format=json
 * token_path=… type_path=…`). The header is `header=` (default `Authorization`), its value
 * `scheme=` + token, else on `Authorization` the token type (default `Bearer`) + token, else the
 * token alone. A shell as argv[0] is refused, as resterm refuses it. Runs only in a trusted
 * project (src/trust/); the time limit is the `$(…)` runner's 10 s (less with `timeout=`), and
 * the token is a secret from the moment it is read. A `cache_key` keeps the token for the rest of
 * the run: later requests naming it reuse it (argv may then be left out), as resterm does.
 */
import { basename, dirname } from 'node:path';
import { UsageError } from '../../core/errors/index.js';
import { hasHeader } from '../../core/headers.js';
import { parseDuration } from '../../core/duration.js';
import { SHELL_TIMEOUT_MS, runProgram, type ProgramResult } from '../../core/shell-run.js';
import type { AuthContext } from '../../pipeline/context.js';
import { requireTrust } from '../../trust/require-trust.js';
import { trustScopeOf } from '../../trust/scope-of.js';

const SHELLS = new Set(['bash', 'cmd', 'fish', 'powershell', 'pwsh', 'sh', 'zsh', 'dash', 'ksh']);
const KNOWN = new Set(['argv', 'format', 'header', 'scheme', 'token_path', 'type_path', 'expiry_path', 'expires_in_path', 'cache_key', 'ttl', 'timeout']);
/** resterm's limit on what the program prints. */
const MAX_STDOUT = 256 * 1024;

/** One `key=value`: the value a JSON list of strings (`[…]`), a quoted string, or a word. */
const PARAM = String.raw`\s*([\w-]+)=(\[(?:"(?:\\.|[^"\\])*"|[^\]"])*\]|"(?:\\.|[^"\\])*"|'[^']*'|\S+)\s*`;

/** The directive's `key=value` pairs, as resterm writes them (quotes around a value dropped). */
function commandParams(text: string, where: string): Map<string, string> {
  const params = new Map<string, string>();
  const param = new RegExp(PARAM, 'y'); // sticky: each pair where the last one ended
  for (let at = text.search(/\S|$/); at < text.length; at = param.lastIndex) {
    param.lastIndex = at;
    const match = param.exec(text);
    if (!match) throw new UsageError(`${where}: # @auth command: expected key=value at "${text.slice(at, at + 20)}"`, { hint: 'write it as resterm does: # @auth command argv=["gh","auth","token"]' });
    const [, key = '', value = ''] = match;
    params.set(key, /^["']/.test(value) ? value.slice(1, -1) : value);
  }
  return params;
}

function argvOf(raw: string | undefined, where: string): string[] {
  let argv: unknown;
  try {
    argv = raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a): a is string => typeof a === 'string') || (argv[0] as string).trim() === '') {
    throw new UsageError(`${where}: # @auth command: argv must be a JSON list of words, like argv=["gh","auth","token"]`);
  }
  refuseShell(argv[0] as string, where);
  return argv;
}

/** A shell as the program is refused as written and as resolved: a `{{…}}` (a value a response gave) cannot name one. */
function refuseShell(program: string, where: string): void {
  if (SHELLS.has(basename(program.trim()).toLowerCase().replace(/\.exe$/, ''))) {
    throw new UsageError(`${where}: # @auth command: a shell (${basename(program)}) as the program is refused, as resterm refuses it`, { hint: 'name the program itself: argv=["gh","auth","token"]' });
  }
}

/** A `a.b.c` or `$.a.b` path into the program's JSON output; a scalar there, as text. */
function at(doc: unknown, path: string): string | undefined {
  let value = doc;
  for (const key of path.replace(/^\$\.?/, '').split('.').filter(Boolean)) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

function tokenOf(stdout: string, params: Map<string, string>, fail: (why: string) => never): Credential {
  if ((params.get('format') ?? 'text').toLowerCase() === 'json') {
    const path = params.get('token_path') ?? fail('format=json needs token_path');
    let doc: unknown;
    try {
      doc = JSON.parse(stdout);
    } catch {
      fail('its output is not JSON (format=json)');
    }
    const token = at(doc, path);
    if (!token) fail(`its JSON has no value at token_path ${path}`);
    const typePath = params.get('type_path');
    const type = typePath ? at(doc, typePath) : undefined;
    return { token: token as string, ...(type ? { type } : {}) };
  }
  const lines = stdout.split('\n').map((line) => line.trim()).filter(Boolean);
  if (lines.length === 0) fail('it printed nothing');
  if (lines.length > 1) fail('it printed more than one line (format=json reads a field of JSON output)');
  return { token: lines[0] as string };
}

interface Credential {
  token: string;
  type?: string;
}

/** Tokens by `cache_key`, for the rest of the run (resterm keeps them for its session): the program runs once per key. */
function tokenCache(ctx: AuthContext): Map<string, Credential> {
  return (ctx.runState['auth-resterm:command'] ??= new Map<string, Credential>()) as Map<string, Credential>;
}

/** Runs the program (its words already resolved) and reads the token from what it printed. */
async function runForToken(ctx: AuthContext, argv: string[], params: Map<string, string>, where: string): Promise<Credential> {
  const written = params.has('timeout') ? parseDuration(params.get('timeout') as string, 's') : SHELL_TIMEOUT_MS;
  if (written === undefined || written <= 0) throw new UsageError(`${where}: # @auth command: timeout=${params.get('timeout') ?? ''} is not a duration (10s, 500ms)`);
  const limit = Math.min(written, SHELL_TIMEOUT_MS);
  const fail = (why: string): never => {
    throw new UsageError(`${where}: # @auth command ${basename(argv[0] as string)}: ${why}`, { hint: 'the request was not sent' });
  };
  let result: ProgramResult;
  try {
    result = await runProgram(argv[0] as string, argv.slice(1), { timeoutMs: limit, signal: ctx.signal, cwd: dirname(ctx.file), maxStdout: MAX_STDOUT });
  } catch (error) {
    return fail(`could not start: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such program' : (error as Error).message}`);
  }
  // Stopped once past resterm's limit: held whole, endless output (`yes`) would take every byte of memory.
  if (result.overflow) fail('printed more than 256 KiB');
  // A secret before anything else is done with it: no message below quotes it, and every later one is masked.
  for (const line of result.stdout.split('\n')) if (line.trim()) ctx.addSecret?.(line.trim());
  if (result.timedOut) fail(`did not finish within ${limit / 1000} s`);
  if (result.code !== 0) fail(`exited with status ${result.code ?? 'killed'}${result.stderrLine ? `: ${ctx.redact(result.stderrLine)}` : ''}`);
  const credential = tokenOf(result.stdout, params, fail);
  ctx.addSecret?.(credential.token);
  return credential;
}

/**
 * The header resterm's command auth adds: `[name, value]`, the token registered as a secret;
 * none when the request writes that header itself (it wins, and the program is not run).
 */
export async function commandHeader(ctx: AuthContext, directive: string, where: string): Promise<[string, string] | undefined> {
  const params = commandParams(directive.replace(/^(?:(?:file|global|request)\s+)?command\b/i, ''), where);
  const unknown = [...params.keys()].find((key) => !KNOWN.has(key));
  if (unknown) throw new UsageError(`${where}: # @auth command: unknown parameter ${unknown}`, { hint: `known: ${[...KNOWN].join(', ')}` });
  const format = (params.get('format') ?? 'text').toLowerCase();
  if (format !== 'text' && format !== 'json') throw new UsageError(`${where}: # @auth command: format=${format}: text or json`);
  const key = params.get('cache_key');
  const cached = key !== undefined ? tokenCache(ctx).get(key) : undefined;
  // resterm: argv may be left out where a cache_key names a token an earlier request got.
  const templates = cached && !params.has('argv') ? undefined : argvOf(params.get('argv'), where);
  const header = params.get('header') ?? 'Authorization';
  if (hasHeader(ctx.spec.headers, header)) return undefined;
  await requireTrust(trustScopeOf(ctx), where, '# @auth command');
  let credential = cached;
  if (!credential) {
    const argv = await Promise.all((templates ?? []).map((word) => ctx.variables.expand(word)));
    refuseShell(argv[0] as string, where);
    credential = await runForToken(ctx, argv, params, where);
    if (key !== undefined) tokenCache(ctx).set(key, credential);
  }
  const scheme = params.get('scheme');
  const value = scheme ? `${scheme} ${credential.token}` : header.toLowerCase() === 'authorization' ? `${credential.type ?? 'Bearer'} ${credential.token}` : credential.token;
  return [header, value];
}
