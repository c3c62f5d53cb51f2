/**
 * How deep an example may be made from a schema. The sampler expands every `$ref` where it
 * stands, so a 3 KB spec whose ten properties each refer to the next schema, six deep, is a
 * million values (12 s, 430 MB), eight deep never ends. The values a depth would make are counted
 * here first, over the schema graph, stopping at the budget: the deepest depth within it is used.
 */
import { asRecord } from '../source.js';

/** Values an example may hold: far above any real body a request file holds as text. */
export const EXAMPLE_BUDGET = 10_000;

/** The schemas below a schema one level down (properties, items), and beside it (allOf, oneOf, anyOf, not). */
const NESTED = ['properties', 'patternProperties'];
const SINGLE = ['items', 'additionalProperties', 'contains'];
const BESIDE = ['allOf', 'oneOf', 'anyOf'];

/** `#/components/schemas/Pet` in the document. */
function resolvePointer(document: Record<string, unknown>, ref: string): Record<string, unknown> | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const key of ref.slice(2).split('/')) node = asRecord(node)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  return asRecord(node);
}

/** Whether an example of `schema` made `depth` levels deep stays within the budget. */
function fits(schema: Record<string, unknown>, depth: number, document: Record<string, unknown>): boolean {
  let count = 0;
  const stack: Array<[Record<string, unknown>, number]> = [[schema, 0]];
  while (stack.length > 0) {
    const [node, level] = stack.pop() as [Record<string, unknown>, number];
    if (++count > EXAMPLE_BUDGET) return false;
    const target = typeof node.$ref === 'string' ? resolvePointer(document, node.$ref) : undefined;
    if (target) {
      stack.push([target, level]);
      continue;
    }
    for (const key of BESIDE) for (const item of Array.isArray(node[key]) ? node[key] : []) if (asRecord(item)) stack.push([item as Record<string, unknown>, level]);
    if (level >= depth) continue;
    for (const key of NESTED) for (const child of Object.values(asRecord(node[key]) ?? {})) if (asRecord(child)) stack.push([child as Record<string, unknown>, level + 1]);
    for (const key of SINGLE) if (asRecord(node[key])) stack.push([node[key] as Record<string, unknown>, level + 1]);
  }
  return true;
}

/** The deepest depth up to `max` whose example stays within the budget (0: none does). */
export function exampleDepth(schema: Record<string, unknown>, max: number, document: Record<string, unknown>): number {
  for (let depth = max; depth > 0; depth--) if (fits(schema, depth, document)) return depth;
  return 0;
}
