/** Has the object an own enumerable key? Asked per request: a walk that stops at the first, no `Object.keys` array. */
export function hasKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}
