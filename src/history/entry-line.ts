/**
 * One exchange as its history line (the shape of `HistoryEntry`, masked), written key by key
 * into the batch's LineBuffer: no entry object, no copy of its headers, no string of the line.
 * The keys go in the order of `HistoryEntry` — the summary first, `"end":true` last — and the
 * bytes are those `JSON.stringify` made of the entry before (test/history-line.test.ts).
 */
import { displayHeaderValue, displayUrl, type HeaderKinds } from '../core/mask.js';
import { maskSecretFields } from '../core/mask-fields.js';
import { HISTORY_BODY_LIMIT, type HistoryCut, type HistoryTarget, type RecordedExchange } from './entry.js';
import type { LineBuffer } from './line-buffer.js';

/** What the lines of a batch share. */
export interface LineContext {
  target: HistoryTarget;
  /** The secrets the run knows, masked wherever a text may carry one. */
  scrub: (text: string) => string;
  /** Each header name's treatment, worked out once a batch. */
  kinds: HeaderKinds;
  /** A masked text that the recorder cut, without the beginning of a secret split by the cut (`cut-end.ts`). */
  cutEnd: (text: string) => string;
}

/** 12 hex digits: enough that a project's history never repeats one (not a secret: Math.random will do). */
const newId = (): string => Math.floor(Math.random() * 0x1000000000000).toString(16).padStart(12, '0');

/** Writes the line of `exchange` (`file`: its request file, absolute), newline included. */
export function writeEntry(out: LineBuffer, exchange: RecordedExchange, file: string, { target, scrub, kinds, cutEnd }: LineContext): void {
  const { response, error, cut } = exchange;
  out.raw('{"v":1,"id":');
  out.string(newId());
  out.raw(',"time":');
  out.string(new Date(exchange.startedAt).toISOString());
  out.raw(',"project":');
  out.string(target.project);
  out.raw(',"profile":');
  out.string(target.profile);
  out.raw(',"file":');
  out.string(file);
  out.raw(',"name":');
  out.string(exchange.name);
  out.raw(',"line":');
  out.number(exchange.line);
  out.raw(',"method":');
  out.string(exchange.method);
  out.raw(',"url":');
  const url = displayUrl(exchange.url, scrub);
  out.string(cut?.url !== undefined ? cutEnd(url) : url);
  if (response) {
    out.raw(',"status":');
    out.number(response.status);
  }
  out.raw(',"durationMs":');
  out.number(Math.round(exchange.durationMs * 10) / 10);
  out.raw(',"size":');
  out.number(response?.size ?? 0);
  if (error) {
    out.raw(',"error":{"message":');
    const message = scrub(error.message);
    out.string(cut?.error !== undefined ? cutEnd(message) : message);
    out.raw(',"exitCode":');
    out.number(error.exitCode);
    out.raw('}');
  }
  if (cut) writeCut(out, cut);
  out.raw(',"request":{"headers":');
  writeHeaders(out, exchange.requestHeaders, scrub, kinds, cut?.request, cutEnd);
  out.raw(',"size":');
  out.number(exchange.requestSize);
  writeBody(out, exchange.requestBody, exchange.requestSize, scrub);
  out.raw('}');
  if (response) {
    // A sender that set no status text: the key is left out, as JSON.stringify left it.
    if (response.statusText === undefined) out.raw(',"response":{"headers":');
    else {
      out.raw(',"response":{"statusText":');
      out.string(scrub(response.statusText));
      out.raw(',"headers":');
    }
    writeHeaders(out, response.headers, scrub, kinds, cut?.response, cutEnd);
    writeBody(out, response.body, response.size, scrub);
    out.raw('}');
  }
  const { profilesFile, environment } = target;
  if (profilesFile !== undefined || environment !== undefined) {
    out.raw(',"sentWith":{');
    if (profilesFile !== undefined) {
      out.raw('"profilesFile":');
      out.string(profilesFile);
    }
    if (environment !== undefined) {
      out.raw(profilesFile !== undefined ? ',"environment":' : '"environment":');
      out.string(environment);
    }
    out.raw('}');
  }
  out.raw(',"end":true}\n');
}

const asIs = (text: string): string => text;

/** `"cut"`: each field cut, with its full length; the keys in the order of `HistoryCut`. */
function writeCut(out: LineBuffer, cut: HistoryCut): void {
  let first = true;
  const key = (name: string): void => {
    out.raw(first ? `,"cut":{"${name}":` : `,"${name}":`);
    first = false;
  };
  const lengths = (byName: Record<string, number>): void => {
    out.raw('{');
    Object.entries(byName).forEach(([name, length], index) => {
      if (index > 0) out.raw(',');
      out.string(name);
      out.raw(':');
      out.number(length);
    });
    out.raw('}');
  };
  if (cut.url !== undefined) {
    key('url');
    out.number(cut.url);
  }
  if (cut.request) {
    key('request');
    lengths(cut.request);
  }
  if (cut.response) {
    key('response');
    lengths(cut.response);
  }
  if (cut.error !== undefined) {
    key('error');
    out.number(cut.error);
  }
  if (!first) out.raw('}');
}

/**
 * Headers as `displayHeaders` shows them (secret names masked, secrets scrubbed), as a JSON object;
 * the values of the headers in `cut` lose the beginning of a secret split by the cut.
 */
function writeHeaders(out: LineBuffer, headers: Readonly<Record<string, string | readonly string[] | undefined>>, scrub: (text: string) => string, kinds: HeaderKinds, cut?: Record<string, number>, cutEnd?: (text: string) => string): void {
  let first = true;
  out.raw('{');
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out.raw(first ? '' : ',');
    first = false;
    out.string(name);
    out.raw(':');
    const shown = displayHeaderValue(name, value, scrub, kinds);
    // Every line of a cut header: the recorder does not say which of its lines it cut.
    const end = cutEnd && cut && Object.hasOwn(cut, name) ? cutEnd : asIs;
    if (typeof shown === 'string') out.string(end(shown));
    else {
      out.raw('[');
      shown.forEach((line, index) => {
        if (index > 0) out.raw(',');
        out.string(end(line));
      });
      out.raw(']');
    }
  }
  out.raw('}');
}

/**
 * A body as the history keeps it (`StoredBody`): text masked and cut at the limit; binary bodies
 * only noted. The same test as -v and the dry run: a NUL in the first 8,000 bytes is not text.
 */
function writeBody(out: LineBuffer, body: string | Buffer | undefined, size: number, scrub: (text: string) => string): void {
  if (body === undefined || body.length === 0) return;
  // A string is at most the limit in characters already; its bytes are looked at as they were kept.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const nul = bytes.indexOf(0);
  if (nul >= 0 && nul < 8000) return out.raw(',"binary":true');
  let text = bytes.toString('utf8', 0, HISTORY_BODY_LIMIT);
  if (size > HISTORY_BODY_LIMIT) {
    text = text.replace(/\uFFFD$/, ''); // a character split by the cut
    out.raw(',"cut":true');
  }
  out.raw(',"body":');
  out.string(scrub(maskSecretFields(text)));
}
