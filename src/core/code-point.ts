/** A character as Unicode names it in messages: `U+00E9`, `U+1F600`. */
export function codePointName(char: string | number): string {
  const code = typeof char === 'number' ? char : (char.codePointAt(0) ?? 0);
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
