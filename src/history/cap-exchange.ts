/**
 * An exchange held to the history's limits as it is recorded (`HistoryLog.add`): a URL, header
 * values or an error message over them keep their beginning, and `cut` says what was cut and how
 * long it was. Done here, not in the writer, so that a run does not hold a 64 MB header until it
 * ends just to cut it then; the writer masks what is kept (`entry-line.ts`).
 */
import { HISTORY_HEADER_LIMIT, HISTORY_HEADERS_LIMIT, HISTORY_URL_LIMIT, type HistoryCut, type RecordedExchange } from './entry.js';

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The first `limit` characters (never half a surrogate pair) as a string of their own: V8's
 * slice of a long string points into it and would keep the whole value alive.
 */
function head(text: string, limit: number): string {
  const last = text.charCodeAt(limit - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
  return Buffer.from(text.slice(0, end), 'utf16le').toString('utf16le');
}

const lengthOf = (value: string | readonly string[]): number => (typeof value === 'string' ? value.length : value.reduce((sum, line) => sum + line.length, 0));

/** Whether any value, or all together, is over the limits; and the characters of all values. */
function measure(headers: Headers): { over: boolean; chars: number } {
  let chars = 0;
  let over = false;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value === 'string') over ||= value.length > HISTORY_HEADER_LIMIT;
    else over ||= value.some((line) => line.length > HISTORY_HEADER_LIMIT);
    chars += lengthOf(value);
  }
  return { over: over || chars > HISTORY_HEADERS_LIMIT, chars };
}

/** Each value cut to its limit and to what is left of the side's; the full lengths of those cut, by name. */
function capHeaders(headers: Headers): { kept: Record<string, string | string[]>; cut: Record<string, number> } {
  const kept: Record<string, string | string[]> = {};
  const cut: Record<string, number> = {};
  let left = HISTORY_HEADERS_LIMIT;
  const keep = (line: string): string => {
    const limit = Math.min(HISTORY_HEADER_LIMIT, left);
    const shown = line.length > limit ? head(line, limit) : line;
    left -= shown.length;
    return shown;
  };
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const shown = typeof value === 'string' ? keep(value) : value.map(keep);
    kept[name] = shown;
    const full = lengthOf(value);
    if (lengthOf(shown) < full) cut[name] = full;
  }
  return { kept, cut };
}

/** The exchange as the history keeps it (itself when nothing is over a limit), and about how many characters its URL and headers hold. */
export function capExchange(exchange: RecordedExchange): { exchange: RecordedExchange; chars: number } {
  const { url, error, response } = exchange;
  const sent = measure(exchange.requestHeaders);
  const received = response ? measure(response.headers) : { over: false, chars: 0 };
  const errorOver = error !== undefined && error.message.length > HISTORY_URL_LIMIT;
  if (url.length <= HISTORY_URL_LIMIT && !sent.over && !received.over && !errorOver) return { exchange, chars: url.length + sent.chars + received.chars };
  const cut: HistoryCut = {};
  const capped: RecordedExchange = { ...exchange, cut };
  if (url.length > HISTORY_URL_LIMIT) {
    cut.url = url.length;
    capped.url = head(url, HISTORY_URL_LIMIT);
  }
  if (sent.over) {
    const { kept, cut: lengths } = capHeaders(exchange.requestHeaders);
    capped.requestHeaders = kept;
    cut.request = lengths;
  }
  if (response && received.over) {
    const { kept, cut: lengths } = capHeaders(response.headers);
    capped.response = { ...response, headers: kept };
    cut.response = lengths;
  }
  if (error && errorOver) {
    cut.error = error.message.length;
    capped.error = { ...error, message: head(error.message, HISTORY_URL_LIMIT) };
  }
  // Within the limits now: the side's cap, twice, and the URL's.
  return { exchange: capped, chars: 2 * HISTORY_HEADERS_LIMIT + HISTORY_URL_LIMIT };
}
