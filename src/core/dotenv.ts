/**
 * `NAME=value` lines of a dotenv file: `#` comments, optional `export`, single or double quotes
 * (`\n` in double quotes is a line break), a ` # comment` after a value is dropped (a `#` inside
 * quotes is the value's).
 * One reading for httpyac's `.env` environments and `{{$dotenv NAME}}`.
 */
export function parseDotenv(text: string): Record<string, string> {
  // No prototype: `__proto__` or `constructor` is a name like any other, never an object's own machinery.
  const vars = Object.create(null) as Record<string, string>;
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const raw = match[2] ?? '';
    // Quoted: up to the closing quote (in double quotes a `\"` does not close it; single quotes
    // have no escapes: 'C:\dir\' ends at its second quote), then at most a `# comment`.
    const quoted = /^(?:'([^']*)'|"((?:\\.|[^"\\])*)")\s*(?:#.*)?$/s.exec(raw);
    vars[match[1] as string] = quoted ? (quoted[1] ?? (quoted[2] ?? '').replace(/\\n/g, '\n')) : raw.replace(/\s+#.*$/, '');
  }
  return vars;
}
