/**
 * Runs request-file scripts in a `node:vm` context of their own, with a time limit: no
 * `require`, `process`, file system, network or timers, and no object of reqflow's realm in
 * reach. The script talks to reqflow through one bridge function that only ever receives and
 * returns primitives and never throws (a host object or error handed to the script would lead
 * back to the host's `Function`, and from there to `process`).
 *
 * Stack traces are never captured in the context (`Error.stackTraceLimit` is locked to
 * `undefined`): formatting one runs Node's prepare-stack-trace callback, which is host code —
 * a stack overflow inside it throws a RangeError of the host realm into the script, and a
 * stack first read by reqflow would run the script's `Error.prepareStackTrace` (with host
 * call-site arrays, after the time limit). The line an error comes from is tracked instead by
 * marks inserted into the code before it runs (see `instrument`).
 */
import type * as Vm from 'node:vm';
import { lazyBuiltin } from '../core/lazy-builtin.js';
import { refusedSyntax } from './refused-syntax.js';
import { FUNCTION_MARK } from './function-mark.js';

/** Host side of the bridge: an operation name and string arguments in, a primitive out. */
export type Bridge = (op: string, args: ReadonlyArray<string | undefined>) => string | number | boolean | undefined;

/** What went wrong in a script, with the position in the script (1-based) when known. */
export interface ScriptFailure {
  message: string;
  /** Line within the code that was run (1-based), when known. */
  line?: number;
  timedOut?: boolean;
  /** `client.exit()`: not a failure, the script ended early. */
  exited?: boolean;
}

export interface Sandbox {
  /**
   * Runs code; a thrown error, the time limit or a refused `import()` comes back as a failure, never thrown.
   * `marks: false`: without line marks (code reqflow made, whose lines are none of the script's).
   */
  run(code: string, filename: string, options?: { marks?: false }): Promise<ScriptFailure | undefined>;
  /** Evaluates an expression and returns its value as JSON text (undefined: not serialisable). */
  evaluate(expression: string, filename: string): Promise<{ json?: string; failure?: ScriptFailure }>;
}

const vm = (): typeof Vm => lazyBuiltin('node:vm');

/** Global functions the inserted line marks call (names a script will not use by accident). */
const MARK = '__reqflow$line';
const AFTER_CALL = '__reqflow$call';
/** Wraps a script with top-level `await`: the async function's promise, watched by the prelude. */
const AWAIT = '__reqflow$await';

/**
 * Run first in every context, before the API bootstrap: locks stack traces off and installs
 * the line marks and the watch on an awaiting script's promise (its own `then`, taken before
 * any script could replace it). Evaluates to two functions kept by the host only: one reads
 * (and resets) the line last marked, one how the awaiting script ended (0: not yet, 1: done,
 * 2: threw — with what it threw).
 */
const PRELUDE = `(function () {
  'use strict';
  const lock = (object, key, value) => Object.defineProperty(object, key, { value, writable: false, enumerable: false, configurable: false });
  lock(Error, 'stackTraceLimit', undefined);
  lock(Error, 'prepareStackTrace', undefined);
  let line = 0;
  lock(globalThis, '${MARK}', (n) => { if (typeof n === 'number') line = n; });
  lock(globalThis, '${AFTER_CALL}', (value, n) => { if (typeof n === 'number') line = n; return value; });
  const then = Object.getPrototypeOf((async () => {})()).then;
  const apply = Reflect.apply;
  let settled = 0;
  let thrown;
  lock(globalThis, '${AWAIT}', (promise) => { settled = 0; thrown = undefined; apply(then, promise, [() => { settled = 1; }, (error) => { settled = 2; thrown = error; }]); });
  return Object.freeze({ __proto__: null,
    line: (reset) => { const last = line; if (reset === true) line = 0; return last; },
    settled: () => settled,
    thrown: () => thrown,
  });
})()`;

/** A proxy's traps would run script code outside the time limit: never touched. */
function isProxy(value: unknown): boolean {
  return lazyBuiltin<typeof import('node:util')>('node:util').types.isProxy(value);
}

/** The value of an own data property of a sandbox object, without running any getter it may have. */
function ownData(value: unknown, key: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  if (isProxy(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

/**
 * What a script threw (or the time limit), read without running any of the script's code:
 * own data properties only, never `stack` (there is none), never a proxy.
 */
function failureOf(error: unknown, line: number | undefined, timeoutMs: number): ScriptFailure {
  const at = line !== undefined ? { line } : {};
  if (isProxy(error)) return { message: 'threw a non-error value', ...at };
  if (ownData(error, 'code') === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { message: `did not finish within ${timeoutMs} ms`, timedOut: true, ...at };
  if (ownData(error, '__reqflowExit') === true) return { message: 'client.exit()', exited: true };
  const message = ownData(error, 'message');
  const prototype = typeof error === 'object' && error !== null ? (Object.getPrototypeOf(error) as unknown) : undefined;
  const name = ownData(prototype, 'name') ?? ownData(error, 'name');
  const text = typeof message === 'string' ? `${typeof name === 'string' ? `${name}: ` : ''}${message}` : `threw ${typeof error === 'string' ? JSON.stringify(error).slice(0, 200) : 'a non-error value'}`;
  return { message: text, ...at };
}

/** A syntax error from compiling: an error of reqflow's own realm (safe to read), whose stack names the line. */
function compileFailure(error: unknown, filename: string): ScriptFailure {
  // isNativeError, not instanceof: the error is the main realm's even where reqflow's modules run in another.
  if (!lazyBuiltin<typeof import('node:util')>('node:util').types.isNativeError(error)) return { message: String(error) };
  const { name, message, stack } = error as Error;
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = typeof stack === 'string' ? new RegExp(`${escaped}:(\\d+)`).exec(stack)?.[1] : undefined;
  return { message: `${name}: ${message}`, ...(line !== undefined ? { line: Number(line) } : {}) };
}

interface Located {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number }; end: { line: number } };
}
type AstNode = Located & Record<string, unknown>;

interface Edit {
  pos: number;
  text: string;
  /** Insertions at one position: closings first (innermost first), then openings (outermost first). */
  closing: boolean;
  /** The other end of the wrapped range (the start for a closing, the end for an opening). */
  other: number;
  /** Between openings of equal extent: statement-level marks before expression wrappers. */
  rank: number;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
const isCall = (node: unknown): boolean =>
  isNode(node) && (node.type === 'CallExpression' || (node.type === 'ChainExpression' && isNode(node.expression) && node.expression.type === 'CallExpression'));

/**
 * The code with line marks inserted (no line breaks added, so positions keep their lines): a
 * call to `__reqflow$line(n)` before every statement and at the start of every arrow function's
 * expression body, and `__reqflow$call(<call>, n)` around calls whose statement goes on after
 * they return (so an error after a call names this line, not the callee's last); and at the start
 * of each function's and class's body, a comment naming where it starts ({@link FUNCTION_MARK}).
 * Undefined when the code does not parse (compiling it then gives V8's own syntax error).
 */
async function instrument(code: string): Promise<string | undefined> {
  const { parse } = await import('acorn');
  let program: AstNode;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, locations: true }) as unknown as AstNode;
  } catch {
    return undefined;
  }
  const edits: Edit[] = [];
  const unwrapped = new Set<unknown>();
  const mark = (node: AstNode): void => {
    edits.push({ pos: node.start, text: `;${MARK}(${node.loc.start.line});`, closing: false, other: node.end, rank: 0 });
  };
  const markList = (statements: unknown): void => {
    if (!Array.isArray(statements)) return;
    for (const statement of statements) if (isNode(statement) && typeof statement.directive !== 'string') mark(statement);
  };
  const markBody = (body: unknown): void => {
    if (!isNode(body) || body.type === 'BlockStatement') return; // its statements are marked
    edits.push({ pos: body.start, text: `{;${MARK}(${body.loc.start.line});`, closing: false, other: body.end, rank: 0 });
    edits.push({ pos: body.end, text: '}', closing: true, other: body.start, rank: 0 });
  };
  // First at its place (rank -1): a function's own text then holds it, before anything of what it holds.
  const markFunction = (node: AstNode, body: unknown): void => {
    if (!isNode(body)) return;
    const block = body.type === 'BlockStatement' || body.type === 'ClassBody';
    edits.push({ pos: block ? body.start + 1 : body.start, text: `/*${FUNCTION_MARK}${node.start}*/`, closing: false, other: block ? body.end - 1 : body.end, rank: -1 });
  };
  const wrapCall = (node: AstNode): void => {
    edits.push({ pos: node.start, text: `${AFTER_CALL}(`, closing: false, other: node.end, rank: 1 });
    edits.push({ pos: node.end, text: `,${node.loc.end.line})`, closing: true, other: node.start, rank: 1 });
  };
  const visit = (node: AstNode): void => {
    switch (node.type) {
      case 'Program':
      case 'BlockStatement':
      case 'StaticBlock':
        markList(node.body);
        break;
      case 'SwitchCase':
        markList(node.consequent);
        break;
      case 'IfStatement':
        markBody(node.consequent);
        markBody(node.alternate);
        break;
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'WithStatement':
        markBody(node.body);
        break;
      case 'ExpressionStatement':
        if (isCall(node.expression)) unwrapped.add(node.expression);
        break;
      case 'ReturnStatement':
        if (isCall(node.argument)) unwrapped.add(node.argument);
        break;
      case 'VariableDeclarator':
        if (isNode(node.id) && node.id.type === 'Identifier' && isCall(node.init)) unwrapped.add(node.init);
        break;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ClassDeclaration':
      case 'ClassExpression':
        markFunction(node, node.body);
        break;
      case 'ArrowFunctionExpression':
        markFunction(node, node.body);
        if (node.expression === true && isNode(node.body)) {
          const body = node.body;
          if (isCall(body)) unwrapped.add(body);
          edits.push({ pos: body.start, text: `(${MARK}(${body.loc.start.line}),`, closing: false, other: body.end, rank: 1 });
          edits.push({ pos: body.end, text: ')', closing: true, other: body.start, rank: 1 });
        }
        break;
      case 'ChainExpression': {
        // `a?.b().c`: a call inside the chain cannot be wrapped without undoing its short-circuit.
        let link: unknown = node.expression;
        while (isNode(link) && (link.type === 'CallExpression' || link.type === 'MemberExpression')) {
          unwrapped.add(link);
          link = link.type === 'CallExpression' ? link.callee : link.object;
        }
        if (isCall(node) && !unwrapped.has(node)) wrapCall(node);
        break;
      }
      case 'CallExpression':
        if (!unwrapped.has(node)) wrapCall(node);
        break;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc') continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) visit(value);
    }
  };
  visit(program);
  edits.sort((a, b) => {
    if (a.pos !== b.pos) return a.pos - b.pos;
    if (a.closing !== b.closing) return a.closing ? -1 : 1;
    if (a.closing) return b.other - a.other || b.rank - a.rank; // inner (later start) closes first
    return b.other - a.other || a.rank - b.rank; // outer (later end) opens first
  });
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += code.slice(at, edit.pos) + edit.text;
    at = edit.pos;
  }
  return out + code.slice(at);
}

/**
 * A fresh context with `bootstrap` (JavaScript defining the script's API on `globalThis`) run
 * in it; `bootstrap` evaluates to a function that receives the bridge and the JSON data.
 * `hostGlobals`: a trusted project's script (src/trust/) is given these host objects — Node's
 * `require` among them — before the API is installed; it then has the user's rights, and only
 * its time limit still holds.
 */
export function createSandbox(bootstrap: string, bridge: Bridge, data: string, timeoutMs: number, hostGlobals?: Readonly<Record<string, unknown>>): Sandbox {
  const { createContext, Script } = vm();
  // afterEvaluate: the promise jobs of an async script run before runInContext returns, inside its time limit.
  const context = createContext(Object.create(null) as object, { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  // Read before any script ran: a frozen object without a prototype, its functions the prelude's.
  const prelude = new Script(PRELUDE, { filename: 'reqflow:script-prelude' }).runInContext(context) as { line: (reset?: boolean) => unknown; settled: () => unknown; thrown: () => unknown };
  const { line: lastLine, settled, thrown } = prelude;
  // Only a positive whole number comes back (a script can call the mark function itself).
  const takeLine = (): number | undefined => {
    const line = lastLine(true);
    return typeof line === 'number' && Number.isInteger(line) && line > 0 ? line : undefined;
  };
  // The host function is wrapped so that it cannot throw into the sandbox (a host Error is a way
  // out), and only ever returns a primitive.
  let deadline = 0;
  // A sleep that reached the time limit: the script has timed out, even if what follows it ends
  // before V8's own watchdog would stop it (a race a busy machine loses either way).
  let sleptToLimit = false;
  const safeBridge = (op: unknown, ...args: unknown[]): string | number | boolean | undefined => {
    // httpyac's sleep(ms): this thread waits, never past the script's time limit.
    if (op === 'sleep') {
      const wanted = Number(args[0]) || 0;
      const left = deadline - Date.now();
      if (wanted >= left) sleptToLimit = true;
      const ms = Math.min(wanted, left);
      if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      return undefined;
    }
    try {
      const result = bridge(String(op), args.map((a) => (a === undefined ? undefined : typeof a === 'string' ? a : '')));
      return typeof result === 'string' || typeof result === 'number' || typeof result === 'boolean' ? result : undefined;
    } catch (error) {
      return `\u0000error:${error instanceof Error ? error.message : String(error)}`;
    }
  };
  for (const [name, value] of Object.entries(hostGlobals ?? {})) Object.defineProperty(context, name, { value, writable: false, configurable: false, enumerable: false });
  const install = new Script(bootstrap, { filename: 'reqflow:script-api' }).runInContext(context) as (bridge: unknown, data: string) => void;
  install(safeBridge, data);

  /**
   * `awaits`: the code has a top-level await, and becomes an async function's body — wrapped
   * after the marks are in (the wrapper's own call must not mark a line), on the code's lines.
   */
  const compile = async (code: string, filename: string, awaits: boolean, marks: boolean): Promise<Vm.Script> => {
    const wrap = (text: string): string => (awaits ? `${AWAIT}((async () => {${text}\n})())` : text);
    const instrumented = marks ? await instrument(code) : undefined;
    if (instrumented !== undefined) {
      try {
        return new Script(wrap(instrumented), { filename });
      } catch {
        // Not expected; the code runs without line marks (or fails with its own syntax error).
      }
    }
    return new Script(wrap(code), { filename });
  };
  /** The script's completion value when it is a string (what `evaluate` needs), or its failure. */
  const execute = async (code: string, filename: string, marks = true): Promise<{ value?: string; failure?: ScriptFailure }> => {
    const refused = await refusedSyntax(code, () => {
      try {
        new Script(code, { filename });
        return true;
      } catch {
        return false;
      }
    });
    if (refused?.message) return { failure: { message: refused.message, line: refused.line } };
    const awaits = refused?.topLevelAwait === true;
    let script: Vm.Script;
    try {
      script = await compile(code, filename, awaits, marks);
    } catch (error) {
      return { failure: compileFailure(error, filename) };
    }
    takeLine();
    let value: unknown;
    deadline = Date.now() + timeoutMs;
    sleptToLimit = false;
    try {
      // displayErrors: false — decorating an error reads its properties (`stack` among them),
      // which for a thrown proxy or getter runs script code after the time limit stopped applying.
      value = script.runInContext(context, { timeout: timeoutMs, breakOnSigint: true, displayErrors: false });
    } catch (error) {
      return { failure: failureOf(error, takeLine(), timeoutMs) };
    }
    if (sleptToLimit) {
      const at = takeLine();
      return { failure: { message: `did not finish within ${timeoutMs} ms`, timedOut: true, ...(at !== undefined ? { line: at } : {}) } };
    }
    if (awaits) {
      const state = settled();
      const at = takeLine();
      if (state === 2) return { failure: failureOf(thrown(), at, timeoutMs) };
      if (state !== 1) return { failure: { message: 'awaits something that never settles (scripts have no timers, network or files)', ...(at !== undefined ? { line: at } : {}) } };
    }
    takeLine();
    // Any other completion value stays in the sandbox: returned from this async function, a
    // thenable would have its `then` called by the host, after the time limit, with host functions.
    return typeof value === 'string' ? { value } : {};
  };
  return {
    async run(code, filename, options) {
      return (await execute(code, filename, options?.marks !== false)).failure;
    },
    async evaluate(expression, filename) {
      // JSON.stringify runs in the sandbox: only a primitive string crosses back.
      const { value, failure } = await execute(`JSON.stringify((${expression}\n))`, filename);
      return failure ? { failure } : value !== undefined ? { json: value } : {};
    },
  };
}
