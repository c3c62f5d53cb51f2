/**
 * Runs request-file scripts written in Lua (rest.nvim's `# @lang=lua`) in wasmoon — the
 * reference Lua 5.4 interpreter compiled to WebAssembly — inside the script worker
 * (sandbox-worker.ts), with the limits JavaScript scripts have:
 * - time: an instruction-count hook raises an error once the time limit has passed (a loop
 *   that catches it with `pcall` still meets it again at its next instructions; the worker's
 *   own watchdog, script-worker.ts, stops what the hook cannot reach);
 * - memory: every allocation of the Lua state goes through wasmoon's counting allocator, and
 *   one past the limit fails as Lua's "not enough memory" — strings included, which live in the
 *   WebAssembly memory where the worker's heap limit does not reach;
 * - reach: only the base, string, table, math and utf8 libraries, and `os.time/date/clock`; no
 *   `io`, `os.execute`, `require`, `package`, `debug`, `load`/`dofile`/`loadfile`,
 *   `string.dump`, `collectgarbage`. Nothing of JavaScript is handed to the script: the API
 *   (restnvim-api.ts) keeps the one bridge function in a local and passes strings only.
 * A fresh Lua state per script (about 1 ms once the module is compiled): nothing a script does to
 * the globals reaches another.
 */
import type { LuaEngine, LuaFactory } from 'wasmoon';
import type { Bridge, Sandbox, ScriptFailure } from '../sandbox.js';
import { jsonToLua } from './json-to-lua.js';
import { LUA_BRIDGE_ERROR, LUA_TIMEOUT } from './restnvim-api.js';

/** Instructions between two looks at the clock (wasmoon's own choice too). */
const HOOK_EVERY = 1000;
const COUNT_MASK = 8; // LUA_MASKCOUNT

/** Run after the API, before any script: what a script may not reach is gone from the globals. */
const LOCKDOWN = String.raw`
local time, date, clock = os.time, os.date, os.clock
os = { time = time, date = date, clock = clock }
string.dump = nil
io, debug, package, coroutine = nil, nil, nil, nil
require, dofile, loadfile, load, loadstring, collectgarbage = nil, nil, nil, nil, nil, nil
`;

/** The compiled module, once per worker: a Lua state is then cheap. */
export function loadLuaFactory(): Promise<LuaFactory> {
  return import('wasmoon').then(({ LuaFactory: Factory }) => {
    const factory = new Factory();
    return factory.getLuaModule().then(() => factory);
  });
}

/** `script:12: attempt to index a nil value` → line 12 and the rest. */
function failureOf(message: string, timeoutMs: number, memoryMb: number): ScriptFailure {
  if (message.includes(LUA_TIMEOUT)) return { message: `did not finish within ${timeoutMs} ms`, timedOut: true };
  const located = /^script:(\d+): ([\s\S]*)$/.exec(message);
  const text = (located?.[2] ?? message).split('\n')[0] as string;
  const failure: ScriptFailure = { message: text === 'not enough memory' ? `used more than ${memoryMb} MB of memory` : text };
  if (located) failure.line = Number(located[1]);
  return failure;
}

/**
 * The bridge as Lua sees it: what the worker answers itself (JSON for `vim.json.decode`, jq's
 * formatting), the rest from reqflow; an error answer in the form the API turns into an error.
 */
function luaBridge(bridge: Bridge): (op: unknown, ...args: unknown[]) => string | number | boolean | undefined {
  return (op, ...args) => {
    const strings = args.map((a) => (typeof a === 'string' ? a : undefined));
    if (op === 'json.lua') {
      const converted = jsonToLua(strings[0] ?? '');
      return 'lua' in converted ? converted.lua : `${LUA_BRIDGE_ERROR}vim.json.decode: ${converted.error}`;
    }
    if (op === 'json.pretty') {
      // jq's output: two spaces, a final newline; text that is not JSON comes back as it was.
      const converted = jsonToLua(strings[0] ?? '');
      return 'lua' in converted ? `${JSON.stringify(JSON.parse(strings[0] ?? ''), null, 2)}\n` : strings[0];
    }
    let result: ReturnType<Bridge>;
    try {
      result = bridge(String(op), strings);
    } catch (error) {
      return `${LUA_BRIDGE_ERROR}${error instanceof Error ? error.message : String(error)}`;
    }
    if (typeof result === 'string' && result.startsWith('\u0000error:')) return LUA_BRIDGE_ERROR + result.slice(7);
    return result;
  };
}

export interface LuaSandbox extends Sandbox {
  dispose(): void;
}

/**
 * A Lua state with `api` (Lua text) run in it, the bridge and the data (JSON) in reach of the
 * API only. Fails (never throws) when the API itself does not load.
 */
export async function createLuaSandbox(factory: LuaFactory, api: string, bridge: Bridge, data: string, timeoutMs: number, memoryMb: number): Promise<LuaSandbox> {
  const engine: LuaEngine = await factory.createEngine({ openStandardLibs: false, injectObjects: false, enableProxy: false, traceAllocations: true });
  const { global } = engine;
  for (const library of ['_G', 'string', 'table', 'math', 'os'] as const) global.loadLibrary(library as Parameters<typeof global.loadLibrary>[0]);
  const wasm = global.lua;
  // Not with loadLibrary('utf8'): wasmoon 1.16 opens the string library under that name.
  wasm.luaopen_utf8(global.address);
  wasm.lua_setglobal(global.address, 'utf8');
  let deadline = Number.POSITIVE_INFINITY;
  const hook = wasm.module.addFunction((state: number) => {
    if (Date.now() <= deadline) return;
    // From now on at every instruction: a loop that catches the error in a pcall meets it again
    // as soon as the pcall returns.
    wasm.lua_sethook(state, hook, COUNT_MASK, 1);
    wasm.lua_pushstring(state, LUA_TIMEOUT);
    wasm.lua_error(state);
  }, 'vii');
  let disposed = false;
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    global.close();
    wasm.module.removeFunction(hook);
  };

  /** Runs a chunk under the limits: its first result (a string: the script's failure), or the failure. */
  const execute = (code: string, name: string): ScriptFailure | undefined => {
    deadline = Date.now() + timeoutMs;
    wasm.lua_sethook(global.address, hook, COUNT_MASK, HOOK_EVERY);
    try {
      global.loadString(code, name);
      const [result] = global.runSync() as unknown[];
      return typeof result === 'string' ? failureOf(result, timeoutMs, memoryMb) : undefined;
    } catch (error) {
      return failureOf(error instanceof Error ? error.message : String(error), timeoutMs, memoryMb);
    } finally {
      deadline = Number.POSITIVE_INFINITY;
      global.setTop(0);
    }
  };

  const converted = jsonToLua(data);
  global.set('__reqflow_bridge', luaBridge(bridge));
  global.set('__reqflow_data', 'lua' in converted ? converted.lua : 'nil');
  // The API's own allocations count too: the limit is set before it runs.
  global.setMemoryMax(memoryMb * 1024 * 1024);
  const setup = execute(api, '=reqflow:api') ?? execute(LOCKDOWN, '=reqflow:lockdown');
  return {
    async run(code) {
      if (setup) return { message: `the Lua script API did not load: ${setup.message}` };
      if (disposed) return { message: 'the script sandbox stopped' };
      global.set('__reqflow_code', code);
      return execute('return __reqflow_run()', '=reqflow:run');
    },
    async evaluate() {
      return { failure: { message: 'Lua expressions are not evaluated in checks' } };
    },
    dispose,
  };
}
