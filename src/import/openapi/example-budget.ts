/**
 * How deep an example may be made from a schema. The sampler expands every `$ref` where it
 * stands, so a 3 KB spec whose ten properties each refer to the next schema, six deep, is a
 * million values (12 s, 430 MB), eight deep never ends; an array is as many items as its
 * `minItems`, so two arrays of a thousand, one inside the other, are a million too. The values a
 * depth would make are counted here first, over the schema graph, stopping at the budget: the
 * deepest depth within it is used. `reqflow import openapi` and `reqflow mock --from-openapi`
 * both sample through it (examples.ts's Sampler).
 */
import { asRecord } from '../source.js';

/** Values an example may hold: far above any real body a request file holds as text. */
export const EXAMPLE_BUDGET = 10_000;

/** The schemas one level below a schema by name (its properties), and those beside it (allOf, oneOf, anyOf). */
const NESTED = ['properties', 'patternProperties'];
const BESIDE = ['allOf', 'oneOf', 'anyOf'];

type Node = Record<string, unknown>;

/**
 * The schemas one level below `node`, each with how many values the sampler makes of it there,
 * and how many plain values it makes beside them. An array is `minItems` items (1 unless told,
 * at most `maxItems`: `minItems: 100000` is 100,000 of them, at any depth), computed as the
 * sampler computes it (openapi-sampler's samplers/array.js); `additionalProperties` is two.
 */
function below(node: Node): { children: Array<[Node, number]>; values: number } {
  const children: Array<[Node, number]> = [];
  for (const key of NESTED) for (const child of Object.values(asRecord(node[key]) ?? {})) if (asRecord(child)) children.push([child as Node, 1]);
  if (asRecord(node.additionalProperties)) children.push([node.additionalProperties as Node, 2]);
  const tuple = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : undefined;
  const single = tuple === undefined ? asRecord(node.items) ?? asRecord(node.contains) : undefined;
  if (tuple === undefined && single === undefined) return { children, values: 0 };
  // The sampler's own arithmetic, its coercions included (`minItems: "100000"` is 100,000 items).
  let length = Math.min(node.maxItems != undefined ? Number(node.maxItems) : Infinity, Number(node.minItems || 1));
  if (tuple !== undefined) length = Math.max(length, tuple.length);
  length = Math.ceil(length); // its loop runs while i < length
  if (!(length > 0)) return { children, values: 0 };
  if (single !== undefined) {
    children.push([single, length]);
    return { children, values: 0 };
  }
  const items = tuple as unknown[];
  for (const item of items.slice(0, length)) children.push([asRecord(item) ?? {}, 1]);
  // Past the tuple's schemas, each item is `{}`: a value each.
  return { children, values: length - items.length };
}

/** `#/components/schemas/Pet` in the document. */
function resolvePointer(document: Node, ref: string): Node | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const key of ref.slice(2).split('/')) node = asRecord(node)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  return asRecord(node);
}

/**
 * Whether an example of `schema` made `depth` levels deep stays within the budget. Each schema
 * counts as many values as the sampler makes of it (an array's items times its length), so the
 * walk ends within the budget's steps: every step adds at least one.
 */
function fits(schema: Node, depth: number, document: Node): boolean {
  let count = 0;
  const stack: Array<[Node, number, number]> = [[schema, 0, 1]];
  while (stack.length > 0) {
    const [node, level, times] = stack.pop() as [Node, number, number];
    count += times;
    if (count > EXAMPLE_BUDGET) return false;
    const target = typeof node.$ref === 'string' ? resolvePointer(document, node.$ref) : undefined;
    if (target) {
      stack.push([target, level, times]);
      continue;
    }
    for (const key of BESIDE) for (const item of Array.isArray(node[key]) ? node[key] : []) if (asRecord(item)) stack.push([item as Node, level, times]);
    if (level >= depth) continue;
    const { children, values } = below(node);
    count += times * values;
    for (const [child, each] of children) stack.push([child, level + 1, times * each]);
  }
  return true;
}

/** The deepest depth up to `max` whose example stays within the budget (0: none does). */
export function exampleDepth(schema: Node, max: number, document: Node): number {
  for (let depth = max; depth > 0; depth--) if (fits(schema, depth, document)) return depth;
  return 0;
}
