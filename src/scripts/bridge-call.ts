/**
 * The start of every script API bootstrap (JetBrains', httpyac's): the JSON data parsed, and
 * `call`, which reaches reqflow through the bridge with strings only and turns the bridge's
 * error answers into errors of the sandbox's own realm; `text` makes a value a string, and
 * `kindOf` says what a value that is not text was (jetbrains-api.ts, `GlobalKind`): a number, a
 * boolean, `null` or a plain object travel as text and are told apart by it.
 */
export const BRIDGE_CALL = String.raw`
  const data = JSON.parse(dataJson);
  const call = (op, ...args) => {
    const strings = args.map((a) => (a === undefined ? undefined : String(a)));
    let result;
    // The bridge does not throw, but a stack overflow on entering it would be an error of
    // reqflow's realm: it is never bound here, only replaced by one of the sandbox's.
    try {
      result = bridge(op, ...strings);
    } catch {
      throw new Error('the script API could not be called');
    }
    if (typeof result === 'string' && result.startsWith('\u0000error:')) throw new Error(result.slice(7));
    return result;
  };
  const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  const plainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));
  const kindOf = (v) => (v === null ? 'null' : typeof v === 'number' || typeof v === 'boolean' ? typeof v : plainObject(v) ? 'object' : undefined);
`;

/**
 * Globals removed from every sandbox, by the end of each API bootstrap. `Promise`: nothing may
 * run after the time limit. `Atomics`, `SharedArrayBuffer`: blocking and shared memory.
 * `WebAssembly`: code from bytes. `FinalizationRegistry`: callbacks at GC time. `ArrayBuffer`,
 * `DataView` and the typed arrays: their bytes live outside the V8 heap, where the worker's
 * heap limit does not reach (8 × 50 MB of Uint8Array took reqflow to 450 MB).
 */
export const REMOVE_GLOBALS = String.raw`
  for (const name of ['Promise', 'Atomics', 'WebAssembly', 'FinalizationRegistry', 'SharedArrayBuffer', 'ArrayBuffer', 'DataView',
    'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'])
    delete globalThis[name];
`;
