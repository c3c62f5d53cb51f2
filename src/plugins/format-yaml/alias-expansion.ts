/**
 * A YAML file can name a node (`&a`) and repeat it (`*a`): js-yaml hands back one shared object
 * per anchor, but everything after parsing (the body, the printed request) expands every
 * repetition. Nine aliases of nine aliases, eleven deep, are 9^11 values from a 1 KiB file — the
 * "billion laughs"; ten aliases of ten of a 100 KB string are 100 MB of text from a 100 KB file.
 * The expanded size is counted here over the shared graph (each object once, memoised), in
 * values and in text, and a file that expands past either limit is refused before anything uses it.
 */
import { MAX_EXPANSION_MIB } from '../../core/input-limits.js';

/** Far above any real request file (a 10,000-request file is ~100,000 values). */
const MAX_EXPANDED_VALUES = 1_000_000;

/** Text (strings and keys, in UTF-16 units) an expanded file may hold: what templates may add to a text, and as much as the largest request file holds. */
const MAX_EXPANDED_TEXT = MAX_EXPANSION_MIB * 1024 * 1024;

interface Size {
  values: number;
  text: number;
}

/**
 * The limit `data` passes once every alias is expanded (`1,000,000 values`, `64 MiB of text`), for
 * "its aliases expand to more than …"; undefined within both. An alias inside its own anchor
 * (`a: &r [*r]`) never ends: past the values.
 */
export function expansionPastLimit(data: unknown): string | undefined {
  const values = `${MAX_EXPANDED_VALUES.toLocaleString('en')} values`;
  const sizes = new Map<object, Size>();
  /** The nodes being counted: one met again below itself is a cycle, whose expansion never ends. */
  const open = new Set<object>();
  // Iterative post-order: a deep (if legal) document must not overflow the stack here.
  const stack: Array<{ node: object; visited: boolean }> = [];
  const childrenOf = (node: object): unknown[] => (Array.isArray(node) ? node : Object.values(node));
  const scalarSize = (value: unknown): Size => ({ values: 1, text: typeof value === 'string' ? value.length : 0 });
  if (typeof data !== 'object' || data === null) return undefined; // a lone scalar repeats nothing
  stack.push({ node: data, visited: false });
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { node: object; visited: boolean };
    if (sizes.has(top.node)) {
      stack.pop();
      continue;
    }
    if (!top.visited) {
      top.visited = true;
      open.add(top.node);
      for (const child of childrenOf(top.node)) {
        if (typeof child !== 'object' || child === null || sizes.has(child)) continue;
        if (open.has(child)) return values;
        stack.push({ node: child, visited: false });
      }
      continue;
    }
    stack.pop();
    open.delete(top.node);
    // A repeated mapping repeats its keys too.
    const size: Size = { values: 1, text: Array.isArray(top.node) ? 0 : Object.keys(top.node).reduce((sum, key) => sum + key.length, 0) };
    for (const child of childrenOf(top.node)) {
      const own = typeof child === 'object' && child !== null ? (sizes.get(child) as Size) : scalarSize(child);
      size.values += own.values;
      size.text += own.text;
    }
    if (size.values > MAX_EXPANDED_VALUES) return values;
    if (size.text > MAX_EXPANDED_TEXT) return `${MAX_EXPANSION_MIB} MiB of text`;
    sizes.set(top.node, size);
  }
  return undefined;
}
