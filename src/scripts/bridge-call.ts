/**
 * The start of every script API bootstrap (JetBrains', httpyac's): the JSON data parsed, and
 * `call`, which reaches reqflow through the bridge with strings only and turns the bridge's
 * error answers into errors of the sandbox's own realm; `text` makes a value a string.
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
`;
