/**
 * The request target (path and query) as the request file wrote it. A WHATWG `URL` rewrites it
 * (`"` becomes `%22`, a bare trailing `?` is dropped, `/a/../b` becomes `/b`); curl, httpie and the
 * `.http` tools send what was written, so the target is taken from the text, not from the `URL`.
 * Only what cannot go on a request line is changed: characters past ASCII are sent UTF-8
 * percent-encoded (JetBrains' specification §4.1.2) and a space as `%20` (VS Code's `encodeurl`).
 */

/** `scheme://authority`: what precedes the target. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*/i;

/**
 * The target to send for `url`: as written in `written` when `url` is what it says (a redirect's
 * `Location` is the server's, and goes as the `URL` gives it).
 */
export function requestTarget(written: string, url: URL, asteriskForm?: boolean): string {
  const normalised = `${url.pathname}${url.search}`;
  const origin = ORIGIN.exec(written)?.[0];
  // Written as the URL gives it (the usual case): the same URL without a second parse.
  if (origin === undefined || (written !== url.href && !sameUrl(written, url))) return normalised;
  if (asteriskForm === true) return '*';
  // The fragment stays on the client side (RFC 9110 §7.1).
  const fragment = written.indexOf('#', origin.length);
  const rest = fragment < 0 ? written.slice(origin.length) : written.slice(origin.length, fragment);
  const target = rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
  if (!target.startsWith('/')) return normalised;
  // Printable ASCII only (nearly every target): sent as it is, without the Unicode scans below.
  if (!/[^\x21-\x7e]/.test(target)) return target;
  // A lone surrogate has no UTF-8 form: the URL's own encoding stands in.
  if (/\p{Cs}/u.test(target)) return normalised;
  return target.replace(/[^\x21-\x7e]/gu, (char) => (char === ' ' ? '%20' : encodeURIComponent(char)));
}

function sameUrl(written: string, url: URL): boolean {
  try {
    return new URL(written).href === url.href;
  } catch {
    return false;
  }
}
