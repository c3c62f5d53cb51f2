import { parseRequestUrl } from './send.js';
import { requestTarget } from './request-target.js';

/**
 * The request target (path and query) of `url` exactly as reqflow sends it — as written, where a
 * `URL`'s `pathname + search` would drop a bare `?` or rewrite `"`: what a signature must cover.
 * Exit 2 for text that is not an http(s) URL, as `parseRequestUrl`.
 */
export function wireTarget(url: string): string {
  return requestTarget(url, parseRequestUrl(url));
}
