/**
 * The comment sandbox.ts's line marks put at the start of each function's and class's body
 * (`/*__reqflow$fn:START*\/`, START its offset in the code as written): a function a script
 * exports names its source by it (`Function.prototype.toString` gives the marked text), for
 * exported-functions.ts to find it in the script. Both sides of the worker read it here.
 */
export const FUNCTION_MARK = '__reqflow$fn:';
