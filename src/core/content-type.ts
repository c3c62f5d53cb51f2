/**
 * What a `Content-Type` says, for every layer that needs it (token extraction, checks, the
 * renderers): one reading of the header, so a body is JSON to all of them or to none.
 */
import type { ResponseInfo } from './model.js';

type WithHeaders = { readonly headers: Readonly<Record<string, string | readonly string[] | undefined>> };

/** The response's Content-Type, lower-cased, parameters included ('' when there is none). */
export function contentType(response: WithHeaders): string {
  const value = response.headers['content-type'];
  return ((Array.isArray(value) ? value[0] : value) ?? '').toLowerCase();
}

/** `application/json`, `application/problem+json`, `text/json`, ... (a media type without parameters). */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json');
}

/** A `Content-Type` value's media type: lower-cased, its parameters (`; charset=utf-8`) left off. */
function mediaTypeOf(value: string): string {
  const parameters = value.indexOf(';'); // asked several times per response: no array of the parts
  return (parameters < 0 ? value : value.slice(0, parameters)).trim().toLowerCase();
}

/** Does a `Content-Type` value (`application/json; charset=utf-8`) say JSON? */
export function isJsonContentType(value: string): boolean {
  return isJsonMediaType(mediaTypeOf(value));
}

/** Does a `Content-Type` value say XML (`application/xml`, `text/xml`, `application/atom+xml`)? */
export function isXmlContentType(value: string): boolean {
  const type = mediaTypeOf(value);
  return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

/** Does the response say its body is JSON? */
export function isJsonResponse(response: Pick<ResponseInfo, 'headers'>): boolean {
  return isJsonContentType(contentType(response));
}

/**
 * A 2xx `text/event-stream` answer: the one answer `# @streaming` reads as a stream of events —
 * and so the one the transport reads with no time-out and no `--max-time` (`--stream-timeout`
 * bounds it). Any other answer to such a request is a body like any other's.
 */
export function isEventStream(response: WithHeaders & { readonly status: number }): boolean {
  return response.status >= 200 && response.status < 300 && contentType(response).split(';')[0]?.trim() === 'text/event-stream';
}
