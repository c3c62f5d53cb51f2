/** HTTP methods as every front end reads them: the request line of a file, `reqflow send`, the hints. */

/** A method is an RFC 9110 token starting with a letter (`GET`, `PROPFIND`, `M-SEARCH`). */
export const METHOD_TOKEN = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/;

const STANDARD_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);

/** True for the methods everyone writes in any case (`get`, `Post`). */
export function isStandardMethod(word: string): boolean {
  return STANDARD_METHODS.has(word.toUpperCase());
}

/** The method to send: a standard one upper-cased (`post` → `POST`), any other token as written (methods are case-sensitive). */
export function methodToSend(word: string): string {
  return isStandardMethod(word) ? word.toUpperCase() : word;
}

/**
 * Why `word` cannot go out as written, or undefined. Node's HTTP/1.1 client upper-cases every
 * method it sends, so `purge` would reach the server as `PURGE` — another method, since methods
 * are case-sensitive (RFC 9110 §9.1): a method other than the standard ones, with a lower-case
 * letter, is refused rather than sent otherwise than written.
 */
export function unsendableMethod(word: string): string | undefined {
  if (isStandardMethod(word) || word === word.toUpperCase()) return undefined;
  return `method "${word}" would go out as "${word.toUpperCase()}" (reqflow's HTTP client sends methods in upper case, and methods are case-sensitive)`;
}

/**
 * Methods Node's client sends without a framing header of its own when they carry no body; any
 * other gets `Content-Length: 0` (or a chunked body when one is piped).
 */
export const NO_BODY_FRAMING = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
