/**
 * The errors of a text whose templates expand past the resolver's limits (`variables.ts`): loaded
 * only when one does. Ten variables that each repeat the next twice expand a byte to a
 * kilobyte, thirty to a gigabyte — past the longest string V8 can hold.
 */
import { VariableError } from './errors/index.js';

/** Exit 3 naming the variables being expanded, outermost first; never their values. */
export function expansionTooLong(stack: readonly string[], limitMiB: number, where: string): VariableError {
  const what = stack.length > 0 ? `variable "${stack[0]}"` : 'a text';
  return new VariableError(`${what}${where} would expand to more than ${limitMiB} MiB of text${through(stack)}`, {
    hint: 'a variable that repeats another ({{b}}{{b}}) doubles it at every level: check the environment and profile files',
  });
}

/** Exit 3: `stack` (outermost first, its last name the one not resolved) goes past `limit` variables deep. */
export function nestedTooDeep(stack: readonly string[], limit: number, where: string): VariableError {
  return new VariableError(`variable "${stack[0]}"${where} nests more than ${limit} variables deep${through(stack)}`, {
    hint: `a variable's value may name another, at most ${limit} levels down: give a deep one its value directly`,
  });
}

/** ` (through a → b → c → … → y → z)`: the chain, its middle left out, on one line. */
export function through(stack: readonly string[]): string {
  const shown = stack.length > 6 ? [...stack.slice(0, 3), '…', ...stack.slice(-2)] : stack;
  return stack.length > 1 ? ` (through ${shown.join(' → ')})` : '';
}
