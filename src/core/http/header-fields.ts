/**
 * The header fields a request may carry, checked once before either protocol sends them, so
 * HTTP/1.1 and HTTP/2 refuse the same ones with the same error: names that are HTTP tokens,
 * values of visible ASCII characters, spaces and tabs (Node's own checks, which HTTP/1.1 applies
 * and HTTP/2 does not: it would send a \x01 or a DEL, and `€` as its low byte; past ASCII, see
 * NOT_IN_HEADER_VALUE).
 */
import { validateHeaderName } from 'node:http';
import { codePointName } from '../code-point.js';
import { UsageError } from '../errors/index.js';
import { fieldLines, hasHeader, type HeaderValue, NON_ASCII_HINT, NOT_IN_HEADER_VALUE, type RequestHeaders } from '../headers.js';
import { maskUrl } from '../mask.js';
import type { OutgoingRequest } from './outgoing-request.js';

/**
 * Exit 2 naming the request and the header (not its value, which may be a secret). A written
 * `Content-Length` must be the length of the body that goes out: another would make the server
 * read part of the body as the next request, or wait for bytes that never come.
 */
export function checkHeaderFields(method: string, url: URL, headers: Readonly<RequestHeaders>, body?: string | { readonly byteLength: number }): void {
  // CONNECT asks for a tunnel, answered outside HTTP's request–response: it would end the run as if nothing were asked.
  if (method === 'CONNECT') throw new UsageError(`CONNECT ${maskUrl(url.href)}: reqflow sends requests, and CONNECT opens a tunnel`, { hint: 'to go through a proxy, give it with --proxy (or the profile\'s "proxy"); reqflow proxy records one', atRequest: true });
  let framing = 0; // 1: Content-Length written, 2: Transfer-Encoding written
  for (const name in headers) {
    try {
      validateHeaderName(name);
    } catch {
      throw refusal(method, url, name, 'its name is not an HTTP token');
    }
    const value = headers[name] as HeaderValue;
    // One line (nearly every header) checked as it is: no array of its lines per header, per request.
    if (typeof value === 'string') checkValue(method, url, name, value);
    else for (const line of fieldLines(value)) checkValue(method, url, name, line);
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      checkLength(method, url, name, value, body);
      framing |= 1;
    } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      // The body is sent chunked (Node encodes it): a coding after chunked, or none, would leave its end unknown.
      if (!/(^|,)\s*chunked\s*$/i.test(fieldLines(value).join(','))) {
        throw refusal(method, url, name, 'a request\'s last transfer coding must be chunked (RFC 9112 §6.1)', 'remove it (reqflow frames the body itself) or end it with chunked ("gzip, chunked"); for a compressed body, send Content-Encoding: gzip');
      }
      framing |= 2;
    }
  }
  // Both would be a request two servers can read two ways (request smuggling): refused, not sent.
  if (framing === 3) throw new UsageError(`${method} ${maskUrl(url.href)}: Content-Length and Transfer-Encoding cannot both be sent (RFC 9112 §6.2)`, { hint: 'remove one (without both, reqflow frames the body itself)', atRequest: true });
}

/** A written `Content-Length`, each of its lines, against the body's length in bytes. */
function checkLength(method: string, url: URL, name: string, value: HeaderValue, body: string | { readonly byteLength: number } | undefined): void {
  const length = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  for (const line of fieldLines(value)) {
    if (line.trim() === String(length)) continue;
    const written = /^\s*\d+\s*$/.test(line) ? `says ${line.trim()} bytes, and the body is ${length}` : 'is not a number of bytes';
    throw new UsageError(`${method} ${maskUrl(url.href)}: header ${JSON.stringify(name)} cannot be sent: it ${written}`, { hint: 'remove it: reqflow writes the length', atRequest: true });
  }
}

/** One line of a header's value. */
function checkValue(method: string, url: URL, name: string, line: string): void {
  const bad = NOT_IN_HEADER_VALUE.exec(line)?.[0];
  if (bad === undefined) return;
  if (bad >= '\u0080') throw refusal(method, url, name, `its value holds a character past ASCII (${codePointName(bad)})`, NON_ASCII_HINT);
  throw refusal(method, url, name, `its value holds a character HTTP does not allow (${codePointName(bad)})`);
}

/** What a header's name and value may hold: the hint of a refusal for its syntax. */
const SYNTAX_HINT = 'a header name is letters, digits and !#$%&\'*+-.^_`|~; a value is visible characters, spaces and tabs';

/** Made only when a header is refused: the wording needs the method and URL, which a closure per call would carry. */
function refusal(method: string, url: URL, name: string, what: string, hint = SYNTAX_HINT): UsageError {
  return new UsageError(`${method} ${maskUrl(url.href)}: header ${JSON.stringify(name)} cannot be sent: ${what}`, { hint, atRequest: true });
}

/** The request's headers with the jar's `Cookie`, and `Content-Length` for a body (unless written). */
export function headersToSend(request: OutgoingRequest): RequestHeaders {
  // A written Transfer-Encoding: chunked frames the body itself (Node chunk-encodes it), with no length beside it.
  const length = request.body === undefined || hasHeader(request.headers, 'content-length') || hasHeader(request.headers, 'transfer-encoding') ? undefined : String(typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.byteLength);
  if (length === undefined && request.cookie === undefined) return request.headers; // Node copies them: no copy of ours
  const headers = { ...request.headers };
  if (request.cookie !== undefined) headers.Cookie = request.cookie;
  if (length !== undefined) headers['Content-Length'] = length;
  return headers;
}
