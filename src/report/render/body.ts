import { parseJsonExact } from '../../core/json-exact.js';
import type { ResponseInfo } from '../../core/model.js';

export function contentType(response: ResponseInfo): string {
  const value = response.headers['content-type'];
  return ((Array.isArray(value) ? value[0] : value) ?? '').toLowerCase();
}

/** `application/json`, `application/problem+json`, `text/json`, ... */
export function isJsonResponse(response: ResponseInfo): boolean {
  const type = contentType(response).split(';')[0]?.trim() ?? '';
  return type === 'application/json' || type === 'text/json' || type.endsWith('+json');
}

export function isTextual(response: ResponseInfo, body?: Buffer): boolean {
  const type = contentType(response);
  if (type.startsWith('text/') || isJsonResponse(response) || /xml|javascript|x-www-form-urlencoded|graphql|yaml/.test(type)) return true;
  if (body) return !body.subarray(0, 8000).includes(0);
  return type === '';
}

/** `lossless`: the value holds numbers kept as text (see core/json-exact.ts). */
export type ParsedBody = { ok: true; value: unknown; lossless: boolean } | { ok: false; reason: string };

/** A JSON body's text once it is known to be JSON, or a readable reason why it is not. */
export type JsonBodyText = { ok: true; text: string } | { ok: false; reason: string };

/** Checks that a body is UTF-8 JSON (with the native parser) and returns its text. */
export function jsonBodyText(body: Buffer): JsonBodyText {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { ok: false, reason: 'the body is not valid UTF-8' };
  }
  if (text.trim() === '') return { ok: false, reason: 'the body is empty' };
  try {
    JSON.parse(text);
    return { ok: true, text };
  } catch (error) {
    // A document nested deeper than the call stack allows is shown as text, not a crash.
    if (error instanceof RangeError) return { ok: false, reason: 'the body is nested too deeply to parse' };
    return { ok: false, reason: `the body is not valid JSON (${(error as Error).message})` };
  }
}

/** Parses a JSON body (numbers as written), with a readable reason when it is not JSON or not UTF-8. */
export function parseJsonBody(body: Buffer): ParsedBody {
  const checked = jsonBodyText(body);
  return checked.ok ? { ok: true, ...parseJsonExact(checked.text) } : checked;
}

/** Body as text for display: invalid UTF-8 becomes U+FFFD rather than an exception. */
export function bodyText(body: Buffer): { text: string; validUtf8: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), validUtf8: true };
  } catch {
    return { text: new TextDecoder('utf-8').decode(body), validUtf8: false };
  }
}
