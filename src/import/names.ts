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

  take(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}
