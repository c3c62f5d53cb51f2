/**
 * `application/x-www-form-urlencoded` and multipart bodies as the importers build them: one
 * encoder for curl's `--data-urlencode`, Postman's `urlencoded` bodies and OpenAPI's form
 * examples, one boundary for every multipart body written.
 */
import { randomBytes } from 'node:crypto';

/**
 * The boundary of every multipart body an import writes (reqflow sends the one the header names):
 * drawn afresh by each import, so that no file — not even one an earlier import wrote, uploaded as
 * a part — can hold it and cut the body short.
 */
export const MULTIPART_BOUNDARY = `reqflow-import-${randomBytes(12).toString('hex')}`;

const TEMPLATE = /(\{\{[^{}]*\}\})/;

/** A byte curl's escaping keeps as it is: `A-Za-z0-9-._~`. */
const unreserved = (byte: number): boolean => (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x2e || byte === 0x5f || byte === 0x7e;

/**
 * Bytes percent-encoded as curl's `--data-urlencode` sends them: every byte but `A-Za-z0-9-._~`
 * as `%XX` — the file's own bytes, UTF-8 or not — and a space as `+` (`spaceAsPlus`, curl's form
 * encoding) or `%20`.
 */
export function percentEncodeBytes(bytes: Uint8Array, spaceAsPlus: boolean): string {
  let out = '';
  for (const byte of bytes) out += unreserved(byte) ? String.fromCharCode(byte) : byte === 0x20 && spaceAsPlus ? '+' : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/**
 * Percent-encodes a form name or value (all but `A-Za-z0-9-._~`, the text as UTF-8). A template
 * `keep` says is one (Postman's `{{name}}`) stays a template and becomes `{{%name}}`: its value is
 * encoded when it is substituted, as Postman encodes after substituting. Any other `{{` is text,
 * encoded (`%7B%7B`): a source without templates sends its braces.
 */
function formEncode(text: string, keep?: (template: string) => boolean): string {
  const encode = (part: string): string => percentEncodeBytes(Buffer.from(part, 'utf8'), false);
  if (!keep) return encode(text);
  return text
    .split(TEMPLATE)
    .map((part, i) => (i % 2 === 1 && keep(part) ? (/^\{\{\s*[%$]/.test(part) ? part : part.replace(/^\{\{\s*/, '{{%')) : encode(part)))
    .join('');
}

/** `a=1&b=2` from pairs; `keep`: which templates of the source are its variables (none: every brace is text). */
export function formBody(pairs: ReadonlyArray<readonly [string, string]>, keep?: (template: string) => boolean): string {
  return pairs.map(([name, value]) => `${formEncode(name, keep)}=${formEncode(value, keep)}`).join('&');
}
