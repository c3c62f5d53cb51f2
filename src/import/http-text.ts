/**
 * Text of an imported document as it may stand in a `.http` file: the one place that says how a
 * source's own text is kept from being read as the dialect's syntax (docs/import.md). Whether a
 * whole body reads back as written is the renderer's question (`inlineable` in render-http.ts),
 * answered by the parser itself.
 */

/**
 * `{{"{"}}`: a template of a JavaScript string literal, resolved to `{` (docs/variables.md). The
 * dialect has no escape for `{{`, so a source's literal `{{` is written with its first brace as
 * this template: `{{env.X}}` becomes `{{"{"}}{env.X}}`, sent as `{{env.X}}`.
 */
const LITERAL_BRACE = '{{"{"}}';

/**
 * Text from a source that has no templates (curl, HAR, OpenAPI, a stored secret), written so that
 * it is sent as it is: every `{` followed by another becomes `{{"{"}}`, so no `{{` is left to open
 * a template (`{{$uuid}}` would send a fresh UUID, `{{env.NAME}}` an environment variable).
 */
export function literalText(text: string): string {
  return text.includes('{{') ? text.replace(/\{(?=\{)/g, LITERAL_BRACE) : text;
}

/** Whether the text holds a `{{` of its own, not counting the importer's literal braces. */
export function hasTemplate(text: string): boolean {
  return text.replaceAll(LITERAL_BRACE, '').includes('{{');
}

/** An HTTP token (RFC 9110 §5.6.2, `tchar`): what a method and a header name are made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/** Whether a header value holds a control character (an escape sequence) that no header can carry. */
export function hasHeaderControl(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- these are the characters meant
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value);
}

/**
 * A request target with the characters the request line reads as separators percent-encoded
 * (`/sp?q=a HTTP/2` would be sent over HTTP/2 to `/sp?q=a`), as curl, Postman and browsers send
 * a space: `%20`. Templates the importer wrote are left as they are.
 */
export function encodedTarget(url: string): string {
  return url
    .split(/(\{\{[^{}]*\}\})/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[ \t\v\f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)))
    .join('');
}
