/**
 * JSON text as the text of a Lua table constructor (`{["id"]=1,["tags"]={"a","b"}}`), which the
 * Lua API loads with a private `load` in an empty environment: how `vim.json.decode` and the
 * script's data become Lua values without handing the script any JavaScript object. JSON's
 * `null` is the name `NIL` (rest.nvim's `vim.NIL`), so an array keeps its positions.
 */

/** A string as a Lua literal: printable ASCII as is, everything else as `\u{…}` (Lua 5.4 writes it as UTF-8). */
function luaString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    out += code >= 0x20 && code < 0x7f && char !== '"' && char !== '\\' ? char : `\\u{${code.toString(16)}}`;
  }
  return `${out}"`;
}

function luaNumber(value: number): string {
  // An integral JSON number is a Lua integer (`1`, not `1.0`), as lua-cjson decodes it.
  return Number.isSafeInteger(value) ? String(value) : Number.isFinite(value) ? value.toExponential() : '0';
}

/** Any JSON value as Lua constructor text. */
function luaLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NIL';
  if (typeof value === 'string') return luaString(value);
  if (typeof value === 'number') return luaNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `{${value.map(luaLiteral).join(',')}}`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `[${luaString(key)}]=${luaLiteral(item)}`)
    .join(',')}}`;
}

/** JSON text as Lua constructor text, or the parse error's message (never the text itself, which may hold a secret). */
export function jsonToLua(text: string): { lua: string } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'the text is not JSON' };
  }
  return { lua: luaLiteral(value) };
}
