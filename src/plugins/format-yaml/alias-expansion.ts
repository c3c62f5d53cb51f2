/**
 * A YAML file can name a node (`&a`) and repeat it (`*a`): js-yaml hands back one shared object
 * per anchor, but everything after parsing (the body, the printed request) expands every
 * repetition. Nine aliases of nine aliases, eleven deep, are 9^11 values from a 1 KiB file — the
 * "billion laughs". The expanded size is counted here over the shared graph (each object once,
 * memoised), and a file that expands past the limit is refused before anything uses it.
 */

/** Far above any real request file (a 10,000-request file is ~100,000 values). */
export const MAX_EXPANDED_VALUES = 1_000_000;

/** The number of values `data` has once every alias is expanded, or undefined past `limit` — or endless: an alias inside its own anchor (`a: &r [*r]`). */
export function expandedSize(data: unknown, limit = MAX_EXPANDED_VALUES): number | undefined {
  const sizes = new Map<object, number>();
  /** The nodes being counted: one met again below itself is a cycle, whose expansion never ends. */
  const open = new Set<object>();
  // Iterative post-order: a deep (if legal) document must not overflow the stack here.
  const stack: Array<{ node: object; visited: boolean }> = [];
  const childrenOf = (node: object): unknown[] => (Array.isArray(node) ? node : Object.values(node));
  const sizeOf = (value: unknown): number => (typeof value === 'object' && value !== null ? (sizes.get(value) ?? 0) : 1);
  if (typeof data !== 'object' || data === null) return 1;
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
        if (open.has(child)) return undefined;
        stack.push({ node: child, visited: false });
      }
      continue;
    }
    stack.pop();
    open.delete(top.node);
    let size = 1;
    for (const child of childrenOf(top.node)) size += sizeOf(child);
    if (size > limit) return undefined;
    sizes.set(top.node, size);
  }
  return sizes.get(data);
}
