/**
 * restcli's `parseEscapes` / `# @parsing true`: `\n`, `\t`, `\r`, `\\`, `\"`, `\'`, `\0` and
 * `\uXXXX` in a body become the characters they name. Anything else after `\` stays as written.
 */
export function parseEscapes(text: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '0': '\0' };
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/gs, (whole, code: string) => (code.length === 5 ? String.fromCharCode(Number.parseInt(code.slice(1), 16)) : (simple[code] ?? whole)));
}
