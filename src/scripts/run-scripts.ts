/**
 * Runs a request's JetBrains scripts (pre-request or response handlers) in the sandbox and
 * connects the API to the run: `client.global` to the run's variables, `request.variables` to
 * the request's, `client.test`/`client.assert` to test results, `client.log` to stderr.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { shownPath } from '../core/resolve-path.js';
import { UsageError } from '../core/errors/index.js';
import { isSecretName } from '../core/mask.js';
import { notAFile } from '../core/not-a-file.js';
import type { ScriptSpec, TestResult } from '../core/model.js';
import type { ScriptGlobals } from '../core/script-globals.js';
import { carryCode, carryFunctions, type ExportedFunction, type ExportedText, namedFunctions, refusalOf } from './exported-functions.js';
import { HTTPYAC_API, scriptIdentifiers } from './httpyac-api.js';
import { type GlobalKind, JETBRAINS_API, type ScriptData } from './jetbrains-api.js';
import { luaVariableNames, RESTNVIM_API } from './lua/restnvim-api.js';
import type { Bridge, ScriptFailure } from './sandbox.js';
import type { IsolatedSandbox, ScriptWorker } from './script-worker.js';

/** A script that may call `require` (httpyac's scripts may, in a trusted project). */
const REQUIRE = /\brequire\b/;

/** Default time limit of one script (the 5 s; `--script-timeout` changes it). */
export { SCRIPT_TIMEOUT_MS } from '../core/bounded-run.js';

export interface ScriptHost {
  /** `client.global`: the run's variables. */
  globals: Map<string, string>;
  /** Which of `globals` a script left as a number, a boolean, `null` or an object (`globals` holds their text). */
  globalKinds?: Map<string, GlobalKind>;
  /**
   * Globals kept beyond the file (earlier files of the invocation, earlier runs, in the session):
   * read where the run's have none; `client.global.set`/`clear` and `$global` change them too.
   */
  stored?: Pick<ScriptGlobals, 'get' | 'set' | 'delete' | 'clear' | 'size' | 'entries'>;
  /** Functions httpyac scripts exported in this run, for the later scripts that name them (exported-functions.ts). */
  functions?: Map<string, ExportedFunction>;
  /** `client.global.headers`: headers for every later request of the run. */
  headers: Map<string, string>;
  /** `request.variables`: this request's own. */
  requestVariables: Map<string, string>;
  /** `request.environment.get(name)`. */
  environment(name: string): string | undefined;
  /** httpyac scripts: the values of those names that are variables (the others left out). */
  resolve(names: readonly string[]): Promise<Record<string, string>>;
  log(text: string): void;
  /** What a script says — a log line, a test's message, its error — as it may be shown: secrets and pieces of them masked (secret-pieces.ts). */
  shown(text: string): string;
  /** httpyac's `{{@request` hook: the request as the script left it (JSON), or why it cannot be sent. */
  requestChanged?(json: string): void;
  /** A `$global` array the script replaced by another (httpyac's `# @loop` walks the array it read, not its successor). */
  arrayReplaced?(name: string): void;
  addSecret(value: string): void;
  /** The request file (absolute) and how it is named in messages. */
  file: string;
  timeoutMs: number;
  /** Whether the project is trusted (src/trust/): asked only of an httpyac script that calls `require`. */
  trusted?(): Promise<boolean>;
  /** The run's script worker, where every sandbox lives (its module loads with the first script). */
  sandboxes(): Promise<ScriptWorker>;
}

const KINDS: ReadonlySet<string | undefined> = new Set<GlobalKind>(['number', 'boolean', 'null', 'object']);

/** Records what a run value a script set was when it is not text (or forgets it, when it is). */
function kindSet(host: ScriptHost, name: string, kind: string | undefined): void {
  if (KINDS.has(kind)) host.globalKinds?.set(name, kind as GlobalKind);
  else host.globalKinds?.delete(name);
}

/**
 * `exported`: where an httpyac script's exported functions are collected (its sandbox reads them
 * back after it ends), and the names of those it called that are not carried (its failure).
 */
function bridgeFor(host: ScriptHost, tests: Omit<TestResult, 'file' | 'line'>[], exported?: { texts: ExportedText[]; refused: string[] }): Bridge {
  const setSecretAware = (map: Map<string, string>, name: string, value: string): void => {
    if (isSecretName(name)) host.addSecret(value);
    map.set(name, value);
  };
  return (op, [a = '', b, c]) => {
    switch (op) {
      case 'global.set':
        kindSet(host, a, b === undefined ? undefined : c);
        host.functions?.delete(a);
        if (b === undefined) {
          host.globals.delete(a);
          host.stored?.delete(a);
        } else {
          setSecretAware(host.globals, a, b);
          // A null is a value of this run only: a later file or run finds no such global (it has no text to keep).
          if (c === 'null') host.stored?.delete(a);
          else host.stored?.set(a, b);
        }
        return undefined;
      case 'exports.set':
        // httpyac's `exports.name`: a variable of this file's later requests, not a global.
        kindSet(host, a, c);
        host.functions?.delete(a);
        setSecretAware(host.globals, a, b ?? '');
        return undefined;
      case 'exports.function':
        exported?.texts.push({ name: a, text: b ?? '', ...(c !== undefined ? { carriedAs: c } : {}) });
        return undefined;
      case 'function.refused':
        exported?.refused.push(a);
        return undefined;
      case 'request.set':
        host.requestChanged?.(a);
        return undefined;
      case 'global.replaced':
        host.arrayReplaced?.(a);
        return undefined;
      case 'global.get':
        return host.globals.get(a) ?? host.stored?.get(a);
      case 'global.isEmpty':
        return host.globals.size === 0 && (host.stored?.size ?? 0) === 0;
      case 'global.clear':
        host.globalKinds?.delete(a);
        host.functions?.delete(a);
        host.globals.delete(a);
        host.stored?.delete(a);
        return undefined;
      case 'global.clearAll':
        host.globalKinds?.clear();
        host.functions?.clear();
        host.globals.clear();
        host.stored?.clear();
        return undefined;
      case 'headers.set':
        setSecretAware(host.headers, a, b ?? '');
        return undefined;
      case 'headers.clear':
        host.headers.delete(a);
        return undefined;
      case 'variables.set':
        setSecretAware(host.requestVariables, a, b ?? '');
        return undefined;
      case 'variables.get':
        return host.requestVariables.get(a) ?? host.globals.get(a) ?? host.stored?.get(a);
      case 'environment.get':
        return host.environment(a);
      case 'log':
        host.log(host.shown(a));
        return undefined;
      case 'test':
        tests.push({ name: host.shown(a), passed: b === 'pass', ...(c !== undefined ? { message: host.shown(c) } : {}) });
        return undefined;
      default:
        return '\u0000error:unknown operation';
    }
  };
}

async function codeOf(script: ScriptSpec, host: ScriptHost): Promise<{ code: string; filename: string; lineOffset: number }> {
  const written = script.file ?? host.file;
  const shown = shownPath(written);
  if (script.code !== undefined) return { code: script.code, filename: shown, lineOffset: script.line - 1 };
  const path = resolve(written, '..', script.path ?? '');
  const kind = notAFile(path);
  if (kind) throw new UsageError(`${shown}:${script.line}: cannot read script ${script.path}: it is ${kind}, not a file`);
  try {
    return { code: await readFile(path, 'utf8'), filename: shownPath(path), lineOffset: 0 };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${shown}:${script.line}: cannot read script ${script.path}: ${code === 'ENOENT' ? 'no such file' : String(code ?? error)}`);
  }
}

/** Where a failure is in the request file (and in the script, when the script is a file or several lines long). */
function describe(failure: ScriptFailure, script: ScriptSpec, filename: string, lineOffset: number): { text: string; line: number } {
  if (failure.line === undefined) return { text: `${filename}:${script.line}: ${failure.message}`, line: script.line };
  if (script.code !== undefined) return { text: `${filename}:${lineOffset + failure.line} (script line ${failure.line}): ${failure.message}`, line: lineOffset + failure.line };
  return { text: `${filename}:${failure.line} (script at line ${script.line}): ${failure.message}`, line: script.line };
}

export interface ScriptRun {
  tests: TestResult[];
  /** A script that threw or ran out of time (the first one; later scripts do not run). */
  failure?: { text: string; line: number };
}

/**
 * Runs the scripts of one phase in order. JetBrains scripts share one sandbox (and its globals,
 * as in JetBrains); each httpyac script gets a sandbox of its own with the variables as they
 * are when it starts (as httpyac builds its context per script); each rest.nvim Lua script a
 * Lua state of its own (as rest.nvim loads each one afresh), with the variables it names.
 */
export async function runScripts(scripts: readonly ScriptSpec[], data: ScriptData, host: ScriptHost): Promise<ScriptRun> {
  const [sources, sandboxes] = await Promise.all([Promise.all(scripts.map((script) => codeOf(script, host))), host.sandboxes()]);
  const raw: Omit<TestResult, 'file' | 'line'>[] = [];
  let jetbrains: IsolatedSandbox | undefined;
  const tests: TestResult[] = [];
  try {
    for (const [index, script] of scripts.entries()) {
      const { code, filename, lineOffset } = sources[index] as { code: string; filename: string; lineOffset: number };
      let failure: ScriptFailure | undefined;
      if (script.dialect === 'httpyac') {
        failure = await runHttpyac(code, filename, script, data, host, sandboxes, raw);
      } else if (script.dialect === 'lua') {
        const own = { ...data, variables: await host.resolve(luaVariableNames(code)) };
        const sandbox = sandboxes.createSandbox(RESTNVIM_API, bridgeFor(host, raw), JSON.stringify(own), host.timeoutMs, { language: 'lua' });
        failure = await sandbox.run(code, filename);
        sandbox.dispose();
      } else {
        jetbrains ??= sandboxes.createSandbox(JETBRAINS_API, bridgeFor(host, raw), JSON.stringify(data), host.timeoutMs);
        failure = await jetbrains.run(code, filename);
      }
      for (const test of raw.splice(0)) tests.push({ ...test, file: filename, line: script.line });
      if (failure && !failure.exited) return { tests, failure: describe({ ...failure, message: host.shown(failure.message) }, script, filename, lineOffset) };
      if (failure?.exited) break;
    }
    return { tests };
  } finally {
    jetbrains?.dispose();
  }
}

/**
 * One httpyac script, in a sandbox of its own: the functions earlier scripts exported that it
 * names are made there first (one that cannot be is its failure), and those it exports are read
 * back before the sandbox goes (exported-functions.ts).
 */
async function runHttpyac(code: string, filename: string, script: ScriptSpec, data: ScriptData, host: ScriptHost, sandboxes: ScriptWorker, raw: Omit<TestResult, 'file' | 'line'>[]): Promise<ScriptFailure | undefined> {
  const names = scriptIdentifiers(code);
  const carried = namedFunctions(names, host.functions);
  const own = { ...data, variables: await host.resolve(names.filter((name) => !carried.has(name))), globals: Object.fromEntries([...(host.stored?.entries() ?? []), ...host.globals]), globalKinds: Object.fromEntries(host.globalKinds ?? []) };
  // A trusted project's script gets Node's require, resolved from the script's own file.
  const trusted = REQUIRE.test(code) && (await host.trusted?.()) === true ? { file: resolve(host.file, '..', script.path ?? host.file) } : undefined;
  const exported = { texts: [] as ExportedText[], refused: [] as string[] };
  const sandbox = sandboxes.createSandbox(HTTPYAC_API, bridgeFor(host, raw, exported), JSON.stringify(own), host.timeoutMs, { trusted });
  try {
    const failure =
      (carried.size > 0 ? await sandbox.run(carryCode(carried), 'reqflow:carried-functions', { marks: false }) : undefined) ??
      (await sandbox.run(code, filename)) ??
      (await sandbox.run('await __reqflow$export()', 'reqflow:httpyac-exports'));
    // It called a function that is not carried: it fails, whatever it made of the error.
    const refused = exported.refused.find((name) => carried.has(name));
    if (refused !== undefined) return { message: refusalOf(refused, carried.get(refused) as ExportedFunction) };
    if (failure || exported.texts.length === 0 || !host.functions) return failure;
    const end = { code, where: `${filename}:${script.line}`, variables: new Set(Object.keys(own.variables)), carried, evaluate: (expression: string) => sandbox.evaluate(expression, 'reqflow:exported-functions') };
    for (const [name, fn] of await carryFunctions(exported.texts, end)) {
      host.functions.set(name, fn);
      host.globals.delete(name);
      host.globalKinds?.delete(name);
    }
    return undefined;
  } finally {
    sandbox.dispose();
  }
}

/** `?? js <expression>`: the value of an expression over `response`, in the same sandbox API. */
export async function evaluateExpression(expression: string, data: ScriptData, host: ScriptHost): Promise<unknown> {
  const sandbox = (await host.sandboxes()).createSandbox(JETBRAINS_API, bridgeFor(host, []), JSON.stringify(data), host.timeoutMs);
  const { json, failure } = await sandbox.evaluate(expression, 'assertion').finally(() => sandbox.dispose());
  if (failure) throw new Error(`js ${expression}: ${host.shown(failure.message)}`);
  return json === undefined ? undefined : (JSON.parse(json) as unknown);
}
