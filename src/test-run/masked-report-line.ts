/**
 * `--report json=PATH` is a file a CI job keeps and uploads: its lines are masked as the other
 * reports and the history are — the run's secret values wherever they are (a login token a
 * server echoes back in a body) and values under secret-looking names (`"token": …`). `-o json`
 * on the screen shows a body as the server sent it (security.md); the report does not.
 */
import { isLosslessNumber, parseJsonExact, stringifyJson } from '../core/json-exact.js';
import { maskSecretFields } from '../core/mask-fields.js';
import { MASK, isSecretName } from '../core/mask.js';
import { visibleJson } from '../report/render/visible.js';
import type { OutputSink } from '../core/model.js';

/** Past this depth a value is masked whole rather than walked (the walk recurses). */
const MAX_DEPTH = 1_000;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * One record line, masked. Masking the text keeps it JSON unless a secret was written outside a
 * string (a number, or across a value's quotes): such a line is masked value by value instead,
 * a value holding a secret becoming the mask as a string; numbers keep their digits as written.
 */
export function maskedReportLine(line: string, scrub: (text: string) => string): string {
  const newline = line.endsWith('\n') ? '\n' : '';
  const text = newline === '' ? line : line.slice(0, -1);
  const masked = maskSecretFields(scrubEscaped(scrub(text), scrub));
  if (masked === text || isJson(masked)) return `${masked}${newline}`;
  const { value, lossless } = parseJsonExact(text);
  return `${visibleJson(stringifyJson(maskedValue(value, scrub, 0), lossless))}${newline}`;
}

/** Every JSON string token of a line, in order (a quote inside a string never starts one). */
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/g;

/**
 * A secret written with a `"` or a `\` is escaped once more inside a string of the record (a text
 * body is a JSON string there): each string with escapes is decoded, scrubbed in the form the
 * scrub knows, and written back escaped as before (controls as visible escapes). Numbers and the
 * rest of the line stay as written.
 */
function scrubEscaped(text: string, scrub: (text: string) => string): string {
  if (!text.includes('\\')) return text;
  return text.replace(STRING_TOKEN, (token) => {
    if (!token.includes('\\')) return token;
    let decoded: string;
    try {
      decoded = JSON.parse(token) as string;
    } catch {
      return token;
    }
    const clean = scrub(decoded);
    return clean === decoded ? token : visibleJson(JSON.stringify(clean));
  });
}

function maskedValue(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return maskSecretFields(scrub(value));
  if (typeof value === 'number' || isLosslessNumber(value)) return scrub(String(value)) === String(value) ? value : MASK;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return MASK;
  if (Array.isArray(value)) return value.map((item: unknown) => maskedValue(item, scrub, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[scrub(key)] = isSecretName(key) && (typeof item !== 'object' || item === null || isLosslessNumber(item)) ? MASK : maskedValue(item, scrub, depth + 1);
  }
  return out;
}

/** `sink` with every line written to it masked (and no stream to write past the masking). */
export function maskedSink(sink: OutputSink, scrub: (text: string) => string): OutputSink {
  return { out: (chunk) => sink.out(maskedReportLine(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'), scrub)), err: (line) => sink.err(line) };
}
