/** Shell values (`$(…)`) recognised and words quoted; running one is shell-run.ts. */

/** True when a variable's value is a shell command: the whole (trimmed) value is `$(...)`. */
export function isShellValue(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.startsWith('$(') && trimmed.endsWith(')');
}

export function shellCommandOf(value: string): string {
  const trimmed = value.trim();
  return trimmed.slice(2, -1);
}

/** Quotes a value for `/bin/sh` so that it is always one literal word, whatever it contains. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A value as one word of a command line a hint suggests: as it is when that is safe, else quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shellQuote(value);
}
