/**
 * JSON syntax errors said without the file's text: V8's message quotes the text around the
 * error (`Unexpected token 'B', ..."ization": Bearer sk_"... is not valid JSON`), which in a
 * profiles, request or environment file may be part of a secret. Reported instead: what is
 * wrong, and where (line and column).
 */

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** V8 quotes at most this many characters each side of the error. */
const QUOTED_EACH_SIDE = 10;

/** What `JSON.parse(text)` threw, without the text it quotes; `offset` where it broke, when known. */
export function jsonSyntaxError(text: string, error: unknown): { message: string; offset?: number } {
  const raw = error instanceof Error ? error.message : String(error);
  const position = / in JSON at position (\d+)/.exec(raw);
  if (position) return { message: raw.slice(0, position.index), offset: Number(position[1]) };
  // `Unexpected token 'x', "…" is not valid JSON` (the quote cut with ... where the text goes on).
  const quoted = /^(.*?), (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON$/s.exec(raw);
  if (!quoted) return { message: raw.replace(/^JSON\.parse: /, '') };
  const [, what = raw, cutBefore, snippet = '', cutAfter] = quoted;
  const at = text.indexOf(snippet);
  if (at < 0) return { message: what };
  if (cutBefore) return { message: what, offset: at + QUOTED_EACH_SIDE };
  if (cutAfter) return { message: what, offset: at + snippet.length - QUOTED_EACH_SIDE };
  // The whole text was quoted: the first place of the unexpected character.
  const token = /^Unexpected token '([\s\S])'/.exec(what)?.[1];
  const found = token === undefined ? -1 : text.indexOf(token, at);
  return found < 0 ? { message: what } : { message: what, offset: found };
}
