/**
 * The error of a text whose templates expand past the resolver's limit (`variables.ts`): loaded
 * only when one does. Ten variables that each repeat the next twice expand a byte to a
 * kilobyte, thirty to a gigabyte — past the longest string V8 can hold.
 */
import { VariableError } from './errors/index.js';

/** Exit 3 naming the variables being expanded, outermost first; never their values. */
export function expansionTooLong(stack: readonly string[], limitMiB: number, where: string): VariableError {
  const shown = stack.length > 6 ? [...stack.slice(0, 3), '…', ...stack.slice(-2)] : stack;
  const what = stack.length > 0 ? `variable "${stack[0]}"` : 'a text';
  const through = stack.length > 1 ? ` (through ${shown.join(' → ')})` : '';
  return new VariableError(`${what}${where} would expand to more than ${limitMiB} MiB of text${through}`, {
    hint: 'a variable that repeats another ({{b}}{{b}}) doubles it at every level: check the environment and profile files',
  });
}
