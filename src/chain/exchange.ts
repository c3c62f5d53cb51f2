/**
 * A request and its response as later requests, scripts and assertions see them: what was
 * sent (after every stage) and what came back, body included (the first 16 MiB).
 */
import { isJsonMediaType } from '../core/content-type.js';
import { getHeader, type RequestHeaders } from '../core/headers.js';
import type { RequestSpec, ResponseInfo } from '../core/model.js';
import { bodyText } from '../report/render/body.js';

export interface Exchange {
  name: string;
  request: { method: string; url: string; headers: RequestHeaders; body?: string };
  response: {
    status: number;
    statusText: string;
    headers: Record<string, string | string[]>;
    /** Undefined when the body was larger than the recording limit. */
    body: Buffer | undefined;
  };
  /** From sending to the end of the body. */
  durationMs: number;
}

export function exchangeOf(spec: RequestSpec, response: ResponseInfo, body: Buffer | undefined, durationMs: number): Exchange {
  const request: Exchange['request'] = { method: spec.method, url: spec.url, headers: spec.headers };
  const file = spec.bodyFile?.stillBodyOf(spec);
  // A large file sent as it is read is read again only when a reference asks for it (and only while unchanged).
  if (file) Object.defineProperty(request, 'body', { get: () => file.text(), enumerable: true });
  else if (spec.body !== undefined) request.body = typeof spec.body === 'string' ? spec.body : spec.body.toString('utf8');
  return {
    name: spec.name,
    request,
    response: { status: response.status, statusText: response.statusText, headers: response.headers, body },
    durationMs,
  };
}

/**
 * The response body as text, in its charset as the reporters decode it (`Content-Type`, a BOM,
 * an HTML `<meta>`; a charset nobody knows as UTF-8): a check, a capture, a reference or a
 * script sees the text the output shows. Empty when the body was not kept.
 */
export function responseText(response: Exchange['response']): string {
  return response.body === undefined ? '' : bodyText(response.body, response).text;
}

export function contentTypeOf(headers: Record<string, string | string[]>): { mimeType: string; charset: string } {
  const raw = getHeader(headers, 'content-type') ?? '';
  const [mime = '', ...params] = raw.split(';');
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";]*)"?/i.exec(p)?.[1]).find((c) => c !== undefined);
  return { mimeType: mime.trim().toLowerCase(), charset: charset?.toLowerCase() ?? 'utf-8' };
}

export function isJsonType(headers: Record<string, string | string[]>): boolean {
  return isJsonMediaType(contentTypeOf(headers).mimeType);
}

export function isXmlType(headers: Record<string, string | string[]>): boolean {
  const { mimeType } = contentTypeOf(headers);
  return mimeType === 'application/xml' || mimeType === 'text/xml' || mimeType.endsWith('+xml');
}
