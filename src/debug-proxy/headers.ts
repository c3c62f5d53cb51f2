/**
 * What a forwarding proxy does to the header fields it passes on (RFC 9110 §7.6): the
 * hop-by-hop fields — `Connection`, the fields it names, `Proxy-Connection`, `Keep-Alive`, `TE`,
 * `Transfer-Encoding`, `Upgrade` — and the credentials meant for the proxy itself
 * (`Proxy-Authorization`, `Proxy-Authenticate`) are dropped; a `Via` line is added.
 */
import { appendHeader, NOT_IN_HEADER_VALUE, type RequestHeaders } from '../core/headers.js';

const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

/** A message's header (or trailer) lines as `[name, value]` pairs, from Node's flat `rawHeaders` (case, order and repeats kept). */
export function pairsOf(rawHeaders: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i] as string, rawHeaders[i + 1] as string]);
  return pairs;
}

/** The field names the `Connection` lines list: hop-by-hop for this connection only. */
function namedByConnection(pairs: ReadonlyArray<[string, string]>): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of pairs) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const option of value.split(',')) if (option.trim() !== '') names.add(option.trim().toLowerCase());
  }
  return names;
}

/**
 * The lines to pass on: every end-to-end field of the message (minus `drop`, lower-case names
 * the caller sets itself), then `Via`.
 */
export function forwardedHeaders(rawHeaders: readonly string[], via: string, drop: readonly string[] = []): Array<[string, string]> {
  const pairs = pairsOf(rawHeaders);
  const named = namedByConnection(pairs);
  const kept = pairs.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower) && !drop.includes(lower);
  });
  kept.push(['Via', via]);
  return kept;
}

/**
 * The first header line of a client's request that reqflow would not send itself (RFC 9110 §5.5,
 * as every request reqflow sends: visible ASCII, spaces and tabs): its name and what it holds,
 * never its value (it may be a credential). Node's parser refuses most control characters
 * already; bytes past ASCII (obs-text) reach here, read as Latin-1, and would be forwarded,
 * recorded and saved as characters they may not be (`café` in UTF-8 is `cafÃ©`), in a `.http`
 * file `reqflow run` refuses.
 */
export function unsendableHeader(rawHeaders: readonly string[]): { name: string; holds: string } | undefined {
  for (const [name, value] of pairsOf(rawHeaders)) {
    const bad = NOT_IN_HEADER_VALUE.exec(value)?.[0];
    if (bad !== undefined) return { name, holds: bad.charCodeAt(0) < 0x80 ? 'a control character' : 'a byte past ASCII' };
  }
  return undefined;
}

/** Pairs as Node's flat raw-header array (what `http.request` and `writeHead` take, keeping repeats). */
export function flat(pairs: ReadonlyArray<[string, string]>): string[] {
  return pairs.flat();
}

/** Pairs as the history's header map: a repeated name becomes the array of its lines. */
export function headerMap(pairs: ReadonlyArray<[string, string]>): RequestHeaders {
  const map: RequestHeaders = {};
  for (const [name, value] of pairs) appendHeader(map, name, value);
  return map;
}
