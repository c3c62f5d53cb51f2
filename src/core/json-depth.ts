/**
 * How deep a parsed JSON value may nest where code recurses through it: `JSON.stringify`,
 * lossless-json and JMESPath all overflow the call stack somewhere past a few thousand levels,
 * while `JSON.parse` takes 100,000. Deeper values are refused where they enter such code.
 */
export const MAX_JSON_DEPTH = 1000;

/** Whether `value` nests arrays and objects more than `limit` deep, measured without recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const item = values.pop();
    const depth = (depths.pop() as number) + 1;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child !== 'object' || child === null) continue;
      values.push(child);
      depths.push(depth);
    }
  }
  return false;
}
