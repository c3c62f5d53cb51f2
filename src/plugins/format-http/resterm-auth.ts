/**
 * resterm's `# @auth` with its arguments (docs/http-dialect.md, "Authorization shorthands"):
 * `basic USER PASS`, `bearer TOKEN`, `apikey header NAME VALUE`, `NAME VALUE` (a header), for the
 * request or, after `file`/`global`, for the requests below it (resterm's `parseAuthSpec`,
 * `internal/parser/directive.go`). reqflow's own `# @auth bearer` (one word) is left to the auth
 * plugins. What resterm runs that reqflow does not (`command`, `oauth2`, an API key in the query)
 * is refused naming the line: a request never goes out without the credentials its file gives it.
 */
import { ParseError } from '../../core/errors/index.js';

/** The header resterm adds, unless the request writes one of that name. */
export interface RestermAuth {
  scope: 'file' | 'request';
  header: readonly [string, string];
}

const FORM = /^(?:(file|global|request)\s+)?(?:basic\s+(\S+)\s+(.+)|bearer\s+(.+)|api-?key\s+header\s+(\S+)\s+(.+)|(?!(?:basic|bearer|api-?key|command|oauth2|none|file|global|request)\s)([\w!#$%&'*+.^`|~-]+)\s+(.+))$/i;

export function restermAuth(value: string, file: string, line: number): RestermAuth | undefined {
  const text = value.trim();
  if (!/\s/.test(text)) return undefined;
  const m = FORM.exec(text);
  if (!m) throw new ParseError(file, line, 1, `# @auth ${text.slice(0, 60)}: reqflow reads resterm's basic, bearer, apikey header and NAME VALUE forms only`, { hint: 'write the header out, e.g. Authorization: Bearer {{token}}' });
  const header = m[2] ? `Authorization\0Basic ${m[2]}:${m[3]}` : m[4] ? `Authorization\0Bearer ${m[4]}` : m[5] ? `${m[5]}\0${m[6]}` : `${m[7]}\0${m[8]}`;
  return { scope: !m[1] || /^r/i.test(m[1]) ? 'request' : 'file', header: header.split('\0') as [string, string] };
}
