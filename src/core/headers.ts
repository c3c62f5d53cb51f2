import { UsageError } from './errors/index.js';

/**
 * Request headers as the request holds them: names keep the user's spelling; a header written
 * on several lines (two `Accept:` lines) is an array of its lines, sent as separate lines.
 */
export type HeaderValue = string | string[];
export type RequestHeaders = Record<string, HeaderValue>;

/** Case-insensitive header helpers: header names keep the user's spelling on the wire. */
function findHeaderName(headers: Readonly<RequestHeaders>, name: string): string | undefined {
  const lower = name.toLowerCase();
  // `for…in` with own keys: the same keys in the same order as Object.keys, without its array (asked several times a request).
  for (const key in headers) if (Object.hasOwn(headers, key) && (key === name || key.toLowerCase() === lower)) return key;
  return undefined;
}

/**
 * One field value: a header written on several lines gives its lines joined as RFC 9110 §5.3
 * combines them (`, `; `; ` for `Cookie`, as RFC 6265 §5.4 does).
 */
export function fieldValue(name: string, value: HeaderValue): string {
  if (typeof value === 'string') return value;
  return value.join(name.toLowerCase() === 'cookie' ? '; ' : ', ');
}

/** The header's lines, one string per line written. */
export function fieldLines(value: HeaderValue): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

/**
 * The headers as they go on the wire: over HTTP/1.1 several `Cookie` lines are one, joined by
 * `; ` (Node does it, as RFC 6265 §5.4 asks); over HTTP/2 each line is its own field.
 */
export function headersAsSent(headers: Readonly<RequestHeaders>, httpVersion: string | undefined, cookieSent?: string): RequestHeaders {
  const sent: RequestHeaders = {};
  for (const [name, value] of Object.entries(headers)) sent[name] = httpVersion !== '2' && name.toLowerCase() === 'cookie' ? fieldValue(name, value) : value;
  // The jar's cookies went too (the file wrote no Cookie of its own).
  if (cookieSent !== undefined) sent.Cookie = cookieSent;
  return sent;
}

/** The header's value, several lines combined into one (`fieldValue`). */
export function getHeader(headers: Readonly<RequestHeaders>, name: string): string | undefined {
  const key = findHeaderName(headers, name);
  return key === undefined ? undefined : fieldValue(key, headers[key]!);
}

/** The header's lines as written (one or more), or [] when it is not there. */
export function getHeaderLines(headers: Readonly<RequestHeaders>, name: string): readonly string[] {
  const key = findHeaderName(headers, name);
  return key === undefined ? NO_LINES : fieldLines(headers[key]!);
}

/** The lines of a header not written: one frozen array, not a new one per look-up. */
const NO_LINES: readonly string[] = Object.freeze([]);

/** Sets a header, replacing any spelling of the same name (and every line of it). */
export function setHeader(headers: RequestHeaders, name: string, value: HeaderValue): void {
  holdable(name);
  const key = findHeaderName(headers, name);
  if (key !== undefined && key !== name) delete headers[key];
  headers[name] = value;
}

/** Adds one more line of a header: a name written again keeps the first spelling and both lines. */
export function appendHeader(headers: RequestHeaders, name: string, value: string): void {
  holdable(name);
  const key = findHeaderName(headers, name);
  if (key === undefined) headers[name] = value;
  else headers[key] = [...fieldLines(headers[key]!), value];
}

/**
 * Why a header may not be written on several lines, for the fields a request carries once
 * (RFC 9112 §3.2: a server answers two Host lines with 400); undefined for every other field.
 * Each request format words its own error around it, naming the line or the field.
 */
export function singleFieldRule(name: string): string | undefined {
  return name.toLowerCase() === 'host' ? 'a request has one Host header' : undefined;
}

/**
 * Why reqflow cannot carry a header of this name: `__proto__`, which a JavaScript object (the
 * headers' own) takes as its prototype instead of a key, so it would be dropped silently.
 * Undefined for every other name. Each request format words its own error around it.
 */
export function unheldNameRule(name: string): string | undefined {
  return name === '__proto__' ? 'reqflow cannot send a header named __proto__' : undefined;
}

/** The backstop where no format named the line first (a plugin's or a script's header): refused, never dropped. */
function holdable(name: string): void {
  const rule = unheldNameRule(name);
  if (rule !== undefined) throw new UsageError(rule);
}

export function hasHeader(headers: Readonly<RequestHeaders>, name: string): boolean {
  return findHeaderName(headers, name) !== undefined;
}

export function deleteHeader(headers: RequestHeaders, name: string): void {
  const key = findHeaderName(headers, name);
  if (key !== undefined) delete headers[key];
}

/** Profile headers first, then the request's: a request header wins over a profile header of any spelling. */
export function mergeHeaders(profileHeaders: Readonly<RequestHeaders>, requestHeaders: Readonly<RequestHeaders>): RequestHeaders {
  const merged: RequestHeaders = {};
  for (const [name, value] of Object.entries(profileHeaders)) if (!hasHeader(requestHeaders, name)) merged[name] = value;
  return Object.assign(merged, requestHeaders);
}

/**
 * A character a request header value may not hold: visible ASCII, spaces and tabs are all it may
 * (RFC 9110 §5.5). Bytes past ASCII (obs-text) have no character set, and Node would send `é` as
 * one byte (Latin-1) on a request without a body and as two (UTF-8) beside a string body: one
 * refused cannot go out as bytes the file does not say.
 */
export const NOT_IN_HEADER_VALUE = /[^\t\x20-\x7e]/;

/** The hint for a character past ASCII in a header value, wherever it was written. */
export const NON_ASCII_HINT = "header values are ASCII: percent-encode it (é as %C3%A9), or for a parameter use RFC 8187 (filename*=UTF-8''caf%C3%A9.txt)";
