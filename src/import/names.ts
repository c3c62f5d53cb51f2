/** Names of imported files and requests. */

/** `List all pets` → `list-all-pets`: a file or request name from a title. */
export function slug(text: string, fallback = 'requests'): string {
  const name = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return name === '' ? fallback : name.slice(0, 80);
}

/**
 * A request's name as the name of a file beside it (its body): letters, digits, `.`, `_` and `-`
 * only, no leading dot. An OpenAPI operationId is a request's name as written, and
 * `../../../x` or `/etc/x` as a file name wrote outside the import's folder.
 */
export function fileName(text: string, fallback: string): string {
  const name = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '').slice(0, 80);
  return name === '' ? fallback : name;
}

/** Hands out names unique within one scope: `get-users`, `get-users-2`, … */
export class UniqueNames {
  private readonly taken = new Set<string>();
  /** Per base, the number to try next: a HAR of 300,000 `get-a` would otherwise count from 2 each time (quadratic: hours). */
  private readonly next = new Map<string, number>();

  take(base: string): string {
    const key = base.toLowerCase();
    let name = base;
    let n = this.taken.has(key) ? (this.next.get(key) ?? 2) : 2;
    for (; this.taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    this.next.set(key, n);
    this.taken.add(name.toLowerCase());
    return name;
  }
}
