import { Transform, type Readable } from 'node:stream';
import type { ResponseInfo, Session } from './model.js';
import { isExtracted } from './extracted-values.js';
import { isJsonResponse } from './content-type.js';

/** Small enough to keep beside a streamed body; large enough for any login response. */
export const CAPTURE_LIMIT = 1024 * 1024;
/** What is kept of a body too large to capture: enough to tell that it held a token (see tokenTooLarge). */
const TOKEN_HEAD = 4096;
/** What a chained request keeps of its body, for references, scripts and assertions. */
export const CHAIN_CAPTURE_LIMIT = 16 * 1024 * 1024;
const TOKEN_FIELDS = ['token', 'accessToken', 'access_token'] as const;
const MAYBE_TOKEN = /"(?:token|accessToken|access_token)"|\\u/;
const TOKEN_FIELD = /"(?:token|accessToken|access_token)"\s*:/;

export function wantsExtraction(response: Pick<ResponseInfo, 'status' | 'headers'>): boolean {
  return response.status >= 200 && response.status < 300 && isJsonResponse(response);
}

/**
 * The first {@link CAPTURE_LIMIT} bytes of a body; nothing once the body is larger, except its
 * first `keepHead` bytes (what the history keeps of any body).
 */
function boundedRecorder(limit = CAPTURE_LIMIT, keepHead = 0): { add(chunk: Buffer): void; result(): Buffer | undefined; head(): Buffer } {
  let chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  return {
    add(chunk) {
      if (overflow) return;
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        overflow = true;
        // A copy of the head alone: the chunks (up to `limit`) are released.
        chunks = keepHead > 0 ? [Buffer.concat([...chunks, chunk], Math.min(size, keepHead))] : [];
      }
    },
    result: () => (overflow ? undefined : Buffer.concat(chunks, size)),
    head: () => Buffer.concat(chunks, Math.min(size, keepHead)),
  };
}

/** Where the sender leaves the recording of a body (see {@link recordBody}) on its stream. */
const RECORDING = Symbol('reqflow.recordedBody');
type RecordedStream = Readable & { [RECORDING]?: { limit: number; result: () => Buffer | undefined; head: () => Buffer } };

/**
 * For the sender, which already sees every chunk: returns a recorder to call with each chunk
 * (and with `null` at the end) when the response may carry a token, or when a copy is wanted
 * anyway (`limit`: a chained request's; `keepHead`: the history's first bytes of any body), so
 * that {@link captureBody} needs no extra stream in the body's path (a batch run pays per stream).
 */
export function recordBody(stream: Readable, response: ResponseInfo, limit?: number, keepHead?: number): ((chunk: Buffer | null) => void) | undefined {
  const extracting = limit === undefined && wantsExtraction(response);
  if (limit === undefined && keepHead === undefined && !extracting) return undefined;
  // Only the head is wanted of a body no token comes from: no more is held while it streams.
  const kept = limit ?? (extracting || keepHead === undefined ? CAPTURE_LIMIT : keepHead);
  const recorder = boundedRecorder(kept, extracting ? Math.max(keepHead ?? 0, TOKEN_HEAD) : keepHead);
  let done = false;
  (stream as RecordedStream)[RECORDING] = { limit: kept, result: () => (done ? recorder.result() : undefined), head: recorder.head };
  return (chunk) => {
    if (chunk === null) done = true;
    else recorder.add(chunk);
  };
}

/**
 * The first `bytes` of a body as received so far: the whole body once something read it, else
 * what the sender recorded while it streamed (see {@link recordBody}'s `keepHead`).
 */
export function bodyHead(response: ResponseInfo, bytes: number): Buffer | undefined {
  // A copy when cut: the head must not keep a large body alive until the history is written.
  if (response.body) return response.body.length > bytes ? Buffer.from(response.body.subarray(0, bytes)) : response.body;
  return (response.stream as RecordedStream | undefined)?.[RECORDING]?.head().subarray(0, bytes);
}

/**
 * Keeps a copy of the first MiB of a body while a renderer streams it, so that the token of a
 * login response can be extracted without buffering large responses. Bodies from the core
 * sender are already recorded; a plugin's sender gets a pass-through stream that records.
 */
export function captureBody(response: ResponseInfo, limit = CAPTURE_LIMIT): () => Buffer | undefined {
  // The same limit whether the body was buffered (-o json, a terminal) or streamed (-o raw, a pipe):
  // what a run captures must not depend on how it shows the response.
  const within = (body: Buffer | undefined): Buffer | undefined => (body !== undefined && body.length > limit ? undefined : body);
  const source = response.stream;
  if (!source || response.body) return () => within(response.body);
  const recording = (source as RecordedStream)[RECORDING];
  if (recording && limit <= recording.limit) return () => within(response.body) ?? recording.result();
  const recorder = boundedRecorder(limit, TOKEN_HEAD);
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      recorder.add(chunk);
      callback(null, chunk);
    },
  });
  source.on('error', (error) => tee.destroy(error));
  response.stream = source.pipe(tee);
  return () => within(response.body) ?? (tee.writableFinished ? recorder.result() : undefined);
}

/** True when a response too large to capture starts like a login response (a token field): a token was left out. */
export function tokenTooLarge(response: ResponseInfo): boolean {
  if (Math.max(response.body?.length ?? 0, response.size) <= CAPTURE_LIMIT) return false; // not read to its end: no verdict
  const head = bodyHead(response, TOKEN_HEAD);
  return head !== undefined && TOKEN_FIELD.test(head.toString('utf8'));
}

/**
 * From a 2xx JSON response: top-level `token`, else `accessToken`, else `access_token` is stored
 * in the session as `token`. The value is stored as text and never evaluated later.
 */
export function extractToken(body: Buffer | undefined, session: Session): string | undefined {
  if (!body || body.length === 0) return undefined;
  const text = body.toString('utf8');
  // Most bodies of a batch carry no token: skip the parse unless a field name (or an escape that could spell one) is there.
  if (!MAYBE_TOKEN.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  for (const field of TOKEN_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') {
      // The same value the request saved on purpose (# @capture … with @save) stays the user's.
      if (session.get('token') !== value || isExtracted(session, 'token')) session.set('token', value, 'extracted');
      return field;
    }
  }
  return undefined;
}
