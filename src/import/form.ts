/**
 * `application/x-www-form-urlencoded` and multipart bodies as the importers build them: one
 * encoder for curl's `--data-urlencode`, Postman's `urlencoded` bodies and OpenAPI's form
 * examples, one boundary for every multipart body written.
 */

/** The boundary of every multipart body an import writes (reqflow sends the one the header names). */
export const MULTIPART_BOUNDARY = 'reqflow-import-boundary';

const TEMPLATE = /(\{\{[^{}]*\}\})/;

/**
 * Percent-encodes a form name or value as curl does (all but `A-Za-z0-9-._~`). With
 * `templates`, a `{{name}}` stays a template and becomes `{{%name}}`: its value is encoded when
 * it is substituted, as Postman encodes after substituting.
 */
export function formEncode(text: string, templates: boolean): string {
  const encode = (part: string): string => encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (!templates) return encode(text);
  return text
    .split(TEMPLATE)
    .map((part, i) => (i % 2 === 1 ? (/^\{\{\s*[%$]/.test(part) ? part : part.replace(/^\{\{\s*/, '{{%')) : encode(part)))
    .join('');
}

/** `a=1&b=2` from pairs. */
export function formBody(pairs: ReadonlyArray<readonly [string, string]>, templates: boolean): string {
  return pairs.map(([name, value]) => `${formEncode(name, templates)}=${formEncode(value, templates)}`).join('&');
}
