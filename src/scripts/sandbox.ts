/**
 * Runs request-file scripts in a `node:vm` context of their own, with a time limit: no
 * `require`, `process`, file system, network or timers, and no object of reqflow's realm in
 * reach. The script talks to reqflow through one bridge function that only ever receives and
 * returns primitives and never throws (a host object or error handed to the script would lead
 * back to the host's `Function`, and from there to `process`).
 */
import type * as Vm from 'node:vm';
import { lazyBuiltin } from '../core/lazy-builtin.js';
import { refusedSyntax } from './refused-syntax.js';

/** Host side of the bridge: an operation name and string arguments in, a primitive out. */
export type Bridge = (op: string, args: ReadonlyArray<string | undefined>) => string | number | boolean | undefined;

/** What went wrong in a script, with the position in the script (1-based) when known. */
export interface ScriptFailure {
  message: string;
  /** Line within the code that was run (1-based), when the error says it. */
  line?: number;
  timedOut?: boolean;
  /** `client.exit()`: not a failure, the script ended early. */
  exited?: boolean;
}

export interface Sandbox {
  /** Runs code; a thrown error, the time limit or a refused `import()` comes back as a failure, never thrown. */
  run(code: string, filename: string): Promise<ScriptFailure | undefined>;
  /** Evaluates an expression and returns its value as JSON text (undefined: not serialisable). */
  evaluate(expression: string, filename: string): Promise<{ json?: string; failure?: ScriptFailure }>;
}

const vm = (): typeof Vm => lazyBuiltin('node:vm');

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

function failureOf(error: unknown, filename: string, timeoutMs: number): ScriptFailure {
  if (isProxy(error)) return { message: 'threw a non-error value' };
  if (ownData(error, 'code') === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { message: `did not finish within ${timeoutMs} ms`, timedOut: true };
  if (ownData(error, '__reqflowExit') === true) return { message: 'client.exit()', exited: true };
  const refusedLine = ownData(error, 'refusedLine');
  if (typeof refusedLine === 'number') return { message: String(ownData(error, 'message')), line: refusedLine };
  const message = ownData(error, 'message');
  const name = ownData(Object.getPrototypeOf(error ?? {}) as unknown, 'name') ?? ownData(error, 'name');
  const text = typeof message === 'string' ? `${typeof name === 'string' ? `${name}: ` : ''}${message}` : `threw ${typeof error === 'string' ? JSON.stringify(error).slice(0, 200) : 'a non-error value'}`;
  const stack = ownData(error, 'stack');
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = typeof stack === 'string' ? new RegExp(`${escaped}:(\\d+)`).exec(stack)?.[1] : undefined;
  return { message: text, ...(line !== undefined ? { line: Number(line) } : {}) };
}

/**
 * A fresh context with `bootstrap` (JavaScript defining the script's API on `globalThis`) run
 * in it; `bootstrap` evaluates to a function that receives the bridge and the JSON data.
 */
export function createSandbox(bootstrap: string, bridge: Bridge, data: string, timeoutMs: number): Sandbox {
  const { createContext, Script } = vm();
  const context = createContext(Object.create(null) as object, { codeGeneration: { strings: false, wasm: false } });
  // The host function is wrapped so that it cannot throw into the sandbox (a host Error is a way out).
  const safeBridge = (op: unknown, ...args: unknown[]): string | number | boolean | undefined => {
    try {
      return bridge(String(op), args.map((a) => (a === undefined ? undefined : typeof a === 'string' ? a : '')));
    } catch (error) {
      return `\u0000error:${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const install = new Script(bootstrap, { filename: 'reqflow:script-api' }).runInContext(context) as (bridge: unknown, data: string) => void;
  install(safeBridge, data);
  // displayErrors: false — decorating an error reads its properties, which for a thrown proxy
  // or getter runs script code after the time limit stopped applying.
  const compile = (code: string, filename: string): Vm.Script => new Script(code, { filename });
  const run = async (code: string, filename: string): Promise<unknown> => {
    const refused = await refusedSyntax(code, () => {
      try {
        compile(code, filename);
        return true;
      } catch {
        return false;
      }
    });
    if (refused) throw Object.assign(new Error(refused.message), { refusedLine: refused.line });
    return compile(code, filename).runInContext(context, { timeout: timeoutMs, breakOnSigint: true, displayErrors: false });
  };
  return {
    async run(code, filename) {
      try {
        await run(code, filename);
        return undefined;
      } catch (error) {
        return failureOf(error, filename, timeoutMs);
      }
    },
    async evaluate(expression, filename) {
      try {
        // JSON.stringify runs in the sandbox: only a primitive string crosses back.
        const json = await run(`JSON.stringify((${expression}\n))`, filename);
        return typeof json === 'string' ? { json } : {};
      } catch (error) {
        return { failure: failureOf(error, filename, timeoutMs) };
      }
    },
  };
}
