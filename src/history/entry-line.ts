/**
 * One exchange as its history line: the `HistoryEntry`, masked, made by `JSON.stringify`. Native
 * encoding is what a run's writer needs: it runs once or twice a run, before V8 has optimised
 * anything, where an encoder of our own ran in the interpreter (issue 23: 3 × the time of
 * `JSON.stringify` for a batch of 500 lines). The keys go in the order of `HistoryEntry` — the
 * summary first, `"end":true` last (readers rely on both: `read.ts`).
 *
 * What a hostile server sent stays in the file only as `\u` escapes where `cat`, `tail -f` or a
 * line-based tool would act on it: `JSON.stringify` escapes C0 controls (ESC too) but writes DEL,
 * C1 controls (U+009B is a terminal's CSI), bidi overrides and U+2028/U+2029 (line ends to
 * Python's `splitlines`, among others) as they are. Escaped, every reader gets the same value back.
 */
import { displayHeaderValue, displayUrl, type HeaderKinds } from '../core/mask.js';
import { stateJson } from '../core/json-escape.js';
import { maskSecretFields } from '../core/mask-fields.js';
import { HISTORY_BODY_LIMIT, type HistoryCut, type HistoryEntry, type HistoryTarget, type RecordedExchange, type StoredBody } from './entry.js';

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

/** The line of `exchange` (`file`: its request file, absolute), without its newline. */
export function entryLine(exchange: RecordedExchange, file: string, { target, scrub, kinds, cutEnd }: LineContext): string {
  const { response, error, cut } = exchange;
  const url = displayUrl(exchange.url, scrub);
  // Built key by key in HistoryEntry's order; an absent field is left out, as JSON.stringify leaves out `undefined`.
  const entry: Partial<HistoryEntry> = {
    v: 1,
    id: newId(),
    time: new Date(exchange.startedAt).toISOString(),
    project: target.project,
    profile: target.profile,
    file,
    name: exchange.name,
    line: exchange.line,
    method: exchange.method,
    url: cut?.url !== undefined ? cutEnd(url) : url,
  };
  if (response) entry.status = response.status;
  entry.durationMs = Math.round(exchange.durationMs * 10) / 10;
  entry.size = response?.size ?? 0;
  if (error) {
    const message = scrub(error.message);
    entry.error = { message: cut?.error !== undefined ? cutEnd(message) : message, exitCode: error.exitCode };
  }
  if (cut) entry.cut = inOrder(cut);
  entry.request = { headers: shownHeaders(exchange.requestHeaders, scrub, kinds, cut?.request, cutEnd), size: exchange.requestSize, ...(exchange.requestFile !== undefined ? { file: scrub(exchange.requestFile) } : storedBody(exchange.requestBody, exchange.requestSize, scrub)) };
  if (response) {
    // A sender that set no status text (typed as set, but it happens): the key is left out.
    const { statusText } = response;
    const headers = shownHeaders(response.headers, scrub, kinds, cut?.response, cutEnd);
    const trailers = response.trailers && shownHeaders(response.trailers, scrub, kinds, undefined, cutEnd);
    entry.response = { statusText: statusText === undefined ? statusText : scrub(statusText), headers, ...(trailers ? { trailers } : {}), ...storedBody(response.body, response.size, scrub) };
  }
  const { profilesFile, environment } = target;
  if (profilesFile !== undefined || environment !== undefined) entry.sentWith = { profilesFile, environment };
  entry.end = true;
  return stateJson(entry);
}

/** `"cut"` with its keys in the order of `HistoryCut`, whatever order they were set in. */
function inOrder(cut: HistoryCut): HistoryCut {
  return { url: cut.url, request: cut.request, response: cut.response, error: cut.error };
}

const asIs = (text: string): string => text;

/**
 * Headers as `displayHeaders` shows them (secret names masked, secrets scrubbed); the values of
 * the headers in `cut` lose the beginning of a secret split by the cut.
 */
function shownHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>, scrub: (text: string) => string, kinds: HeaderKinds, cut: Record<string, number> | undefined, cutEnd: (text: string) => string): Record<string, string | string[]> {
  const shown: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const display = displayHeaderValue(name, value, scrub, kinds);
    // Every line of a cut header: the recorder does not say which of its lines it cut.
    const end = cut && Object.hasOwn(cut, name) ? cutEnd : asIs;
    shown[name] = typeof display === 'string' ? end(display) : display.map(end);
  }
  return shown;
}

/**
 * A body as the history keeps it: text masked and cut at the limit; binary bodies only noted.
 * The same test as -v and the dry run: a NUL in the first 8,000 bytes is not text.
 */
function storedBody(body: string | Buffer | undefined, size: number, scrub: (text: string) => string): StoredBody {
  if (body === undefined || body.length === 0) return {};
  // A string is at most the limit in characters already; its bytes are looked at as they were kept.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const nul = bytes.indexOf(0);
  if (nul >= 0 && nul < 8000) return { binary: true };
  const text = bytes.toString('utf8', 0, HISTORY_BODY_LIMIT);
  if (size <= HISTORY_BODY_LIMIT) return { body: scrub(maskSecretFields(text)) };
  // A character split by the cut is dropped.
  return { cut: true, body: scrub(maskSecretFields(text.replace(/\uFFFD$/, ''))) };
}
