/**
 * Does a run need the chaining state (chain.ts) at all? Apart from it, so that the common run
 * — one request, no checks, scripts or chaining annotations — never loads it.
 */
import type { RequestFile } from '../pipeline/request-file.js';

/** The annotations the chain plugin handles (builtins.ts lists them for it); `expected*` too. */
export const CHAIN_ANNOTATIONS = ['capture', 'extract', 'ref', 'forceRef', 'depends', 'dependsOn', 'import', 'save', 'expectedStatusCodes', 'expectedBody', 'expectedBodyExact', 'expectedBodyPattern', 'expectedBodyField', 'expectedBodyField.*'];

const chaining = (key: string): boolean => key.startsWith('expected') || CHAIN_ANNOTATIONS.includes(key);

/**
 * A file of several requests may refer from one to another anywhere a template is (the URL,
 * headers, a body file, the profile's headers), so it always gets a chain. A single request can
 * only chain through what it says itself: checks, scripts, captures, `@ref`, `@import`, `@depends`.
 */
export function needsChain(requests: RequestFile): boolean {
  if (requests.count !== 1) return true;
  const spec = requests.spec(0);
  return spec.chain !== undefined || Object.keys(spec.annotations).some(chaining);
}
