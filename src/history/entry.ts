/**
 * The history's two shapes: what the `history` hook keeps of a request while the run goes on
 * (in memory, not yet masked), and the line it becomes in a history file (masked).
 */
import type { FolderIdentity } from '../core/folder-identity.js';
import type { RequestHeaders } from '../core/headers.js';

/** How much of each body (request and response) the history keeps. */
export const HISTORY_BODY_LIMIT = 64 * 1024;
/** The longest URL the history keeps whole, in characters (docs/history.md says why these three). */
export const HISTORY_URL_LIMIT = 64 * 1024;
/** The longest header value (each line of a repeated header) the history keeps whole, in characters. */
export const HISTORY_HEADER_LIMIT = 64 * 1024;
/** All header values of one side (request or response) together, in characters. */
export const HISTORY_HEADERS_LIMIT = 256 * 1024;

/**
 * What the history kept only the beginning of, beside the bodies (which say it with their own
 * `cut`): each field's full length in characters, as it was sent or received.
 */
export interface HistoryCut {
  /** The URL: `url` is its first {@link HISTORY_URL_LIMIT} characters. */
  url?: number;
  /** Request headers whose values were cut, by name: all their lines' characters together. */
  request?: Record<string, number>;
  /** Response headers whose values were cut, by name. */
  response?: Record<string, number>;
  /** The error message (it may quote the URL). */
  error?: number;
}

/**
 * The request "file" of the exchanges `reqflow proxy` records: they come from another client, so
 * no request file holds them (`reqflow history replay` says so instead of looking for one).
 */
export const PROXY_SOURCE = '(proxy)';

/** One request as the loop saw it, kept in memory until the run writes its history. */
export interface RecordedExchange {
  /** When the request was sent (epoch ms). */
  startedAt: number;
  durationMs: number;
  file: string;
  name: string;
  line: number;
  method: string;
  url: string;
  requestHeaders: RequestHeaders;
  /** At most {@link HISTORY_BODY_LIMIT} bytes. */
  requestBody?: string | Buffer;
  /** Instead of `requestBody`: the body was this file, sent from the disk (its path as the request writes it); its bytes are not kept. */
  requestFile?: string;
  requestSize: number;
  response?: {
    status: number;
    statusText: string;
    headers: Record<string, string | string[]>;
    /** The trailer fields that came after the body, when any did (bounded by the transport, not cut). */
    trailers?: Record<string, string | string[]>;
    /** The first {@link HISTORY_BODY_LIMIT} bytes received. */
    body?: Buffer;
    size: number;
  };
  error?: { message: string; exitCode: number };
  /** Set by `HistoryLog.add` when a field was over a limit (`cap-exchange.ts`): the fields above hold the kept beginnings. */
  cut?: HistoryCut;
}

/** A body as stored: text (masked, cut), or a note that it was binary. */
export interface StoredBody {
  body?: string;
  /** The body was longer than {@link HISTORY_BODY_LIMIT}: `body` is its beginning. */
  cut?: true;
  /** Bytes that are not text (images, archives) are not kept. */
  binary?: true;
  /** A request body sent from a file larger than 1 MiB: the file's path as the request writes it; its bytes are not kept. */
  file?: string;
}

/**
 * One line of a history file (NDJSON). Every secret in it is masked. The summary comes first, then
 * `request`, `response` and `sentWith`, in that order: readers that need only the summary parse a
 * line up to `"request":` (`read.ts`), and tell a whole line from a torn one by its last key,
 * `"end":true` ({@link LINE_END}).
 */
export interface HistoryEntry {
  v: 1;
  /** Random, 12 hex digits: `reqflow history show ID` (a unique prefix does). */
  id: string;
  /** When the request was sent, ISO 8601. */
  time: string;
  /** The project root (`src/core/project.ts`). */
  project: string;
  profile: string;
  /** The request file, absolute. */
  file: string;
  /** The request's name (`-n NAME` picks it again). */
  name: string;
  line: number;
  method: string;
  url: string;
  /** Absent when no response came (a network error). */
  status?: number;
  /** Milliseconds from sending to the end of the response body (or the error). */
  durationMs: number;
  /** Response body bytes received. */
  size: number;
  /** `exitCode` is absent from an entry edited by hand or written by an older reqflow (read.ts accepts it so). */
  error?: { message: string; exitCode?: number };
  /**
   * Absent unless the URL, a header or the error was over the history's limits: what was cut, and
   * how long it was. Such an entry is not a record of what was sent: `history replay` refuses it.
   */
  cut?: HistoryCut;
  request: { headers: Record<string, string | string[]>; size: number } & StoredBody;
  /** `trailers`: the fields sent after the body (HTTP/1.1 chunked, HTTP/2), masked as headers are; absent when none came. */
  response?: { statusText: string; headers: Record<string, string | string[]>; trailers?: Record<string, string | string[]> } & StoredBody;
  /** The profiles file and `--env` of the run, so `reqflow history replay` sends it the same way. */
  sentWith?: { profilesFile?: string; environment?: string };
  /** Always the last key: a line that does not end with it was torn by a writer killed mid-write. */
  end: true;
}

/**
 * How every whole line ends. Inside a JSON string a quote is always escaped, so these bytes (an
 * unescaped `,"`) can only be the line's own last key, never text cut in the middle of a body.
 */
export const LINE_END = Buffer.from(',"end":true}');

/** An entry without its exchange: what `reqflow history` and `history stats` read. */
export type HistorySummary = Omit<HistoryEntry, 'request' | 'response' | 'sentWith' | 'end'>;

/** Where a run's history goes, and what it is kept for. */
export interface HistoryTarget {
  /** The history file (`src/history/paths.ts`). */
  path: string;
  project: string;
  profile: string;
  profilesFile?: string;
  environment?: string;
  /** Rotate the file before it grows past this many bytes. */
  maxBytes: number;
  /** The project folder the entries are for (`core/folder-identity.ts`), told when they are written; absent when it cannot be told. */
  folder?: FolderIdentity;
}
