import { parseJsonExact } from '../../core/json-exact.js';
import { charsetOf, decoderFor } from './charset.js';
import type { ResponseInfo } from '../../core/model.js';
import { contentType, isJsonResponse } from '../../core/content-type.js';


export function isTextual(response: ResponseInfo, body?: Buffer): boolean {
  const type = contentType(response);
  if (type.startsWith('text/') || isJsonResponse(response) || /xml|javascript|x-www-form-urlencoded|graphql|yaml/.test(type)) return true;
  if (body) return !body.subarray(0, 8000).includes(0);
  return type === '';
}

/** A charset the response named that no decoder knows: the body was read as UTF-8, and the reader warns (`unknownCharsetWarning`). */
interface UnknownCharset {
  unknownCharset?: string;
}

/** `lossless`: the value holds numbers kept as text (see core/json-exact.ts). */
export type ParsedBody = ({ ok: true; value: unknown; lossless: boolean } & UnknownCharset) | { ok: false; reason: string };

/** A JSON body's text once it is known to be JSON, or a readable reason why it is not. */
export type JsonBodyText = ({ ok: true; text: string } & UnknownCharset) | { ok: false; reason: string };

/**
 * Checks that a body is JSON (with the native parser) and returns its text: UTF-8 as RFC 8259
 * says, unless `Content-Type` names another charset.
 */
export function jsonBodyText(body: Buffer, response?: ResponseInfo): JsonBodyText {
  const charset = response ? charsetOf(contentType(response), body) : undefined;
  let text: string;
  if (charset && charset.encoding !== 'utf-8') text = decoderFor(charset.encoding).decode(body);
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return { ok: false, reason: 'the body is not valid UTF-8' };
    }
  }
  if (text.trim() === '') return { ok: false, reason: 'the body is empty' };
  try {
    JSON.parse(text);
    return { ok: true, text, ...(charset?.unknownLabel !== undefined ? { unknownCharset: charset.unknownLabel } : {}) };
  } catch (error) {
    // A document nested deeper than the call stack allows is shown as text, not a crash.
    if (error instanceof RangeError) return { ok: false, reason: 'the body is nested too deeply to parse' };
    return { ok: false, reason: `the body is not valid JSON (${(error as Error).message})` };
  }
}

/** Parses a JSON body (numbers as written), with a readable reason when it is not JSON or not UTF-8. */
export function parseJsonBody(body: Buffer, response?: ResponseInfo): ParsedBody {
  const checked = jsonBodyText(body, response);
  if (!checked.ok) return checked;
  return { ok: true, ...parseJsonExact(checked.text), ...(checked.unknownCharset !== undefined ? { unknownCharset: checked.unknownCharset } : {}) };
}

/** A body decoded for display. */
export interface DecodedText extends UnknownCharset {
  text: string;
  /** False when the body was read as UTF-8 and is not (bad bytes became U+FFFD). */
  validUtf8: boolean;
}

/**
 * Body as text for display, in its charset (`Content-Type`, a BOM, an HTML `<meta>`; else
 * UTF-8); invalid UTF-8 becomes U+FFFD rather than an exception.
 */
export function bodyText(body: Buffer, response?: Pick<ResponseInfo, 'headers'>): DecodedText {
  const charset = response ? charsetOf(contentType(response), body) : undefined;
  const unknown = charset?.unknownLabel !== undefined ? { unknownCharset: charset.unknownLabel } : {};
  if (charset && charset.encoding !== 'utf-8') return { text: decoderFor(charset.encoding).decode(body), validUtf8: true };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), validUtf8: true, ...unknown };
  } catch {
    return { text: new TextDecoder('utf-8').decode(body), validUtf8: false, ...unknown };
  }
}
