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
