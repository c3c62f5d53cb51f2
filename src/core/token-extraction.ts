import { Transform, type Readable } from 'node:stream';
import type { ResponseInfo, Session } from './pipeline.js';
import { isJsonResponse } from './render/body.js';

/** Small enough to keep beside a streamed body; large enough for any login response. */
const CAPTURE_LIMIT = 1024 * 1024;
const TOKEN_FIELDS = ['token', 'accessToken', 'access_token'] as const;

export function wantsExtraction(response: ResponseInfo): boolean {
  return response.status >= 200 && response.status < 300 && isJsonResponse(response);
}

/** Bodies the sender records as they pass (see {@link recordBody}), by stream. */
const recorded = new WeakMap<Readable, () => Buffer | undefined>();

/**
 * For the sender, which already sees every chunk: returns a recorder to call with each chunk
 * (and with `null` at the end) when the response may carry a token, so that
 * {@link captureBody} needs no extra stream in the body's path (a batch run pays per stream).
 */
export function recordBody(stream: Readable, response: ResponseInfo): ((chunk: Buffer | null) => void) | undefined {
  if (!wantsExtraction(response)) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  let done = false;
  recorded.set(stream, () => (overflow || !done ? undefined : Buffer.concat(chunks, size)));
  return (chunk) => {
    if (chunk === null) done = true;
    else if (!overflow && (size += chunk.length) <= CAPTURE_LIMIT) chunks.push(chunk);
    else if (!overflow) {
      overflow = true;
      chunks.length = 0;
    }
  };
}

/**
 * Keeps a copy of the first MiB of a body while a renderer streams it, so that the token of a
 * login response can be extracted without buffering large responses.
 */
export function captureBody(response: ResponseInfo): () => Buffer | undefined {
  const source = response.stream;
  if (!source || response.body) return () => response.body;
  const recording = recorded.get(source);
  if (recording) return () => response.body ?? recording();
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!overflow) {
        size += chunk.length;
        if (size > CAPTURE_LIMIT) overflow = true;
        else chunks.push(chunk);
      }
      callback(null, chunk);
    },
  });
  source.on('error', (error) => tee.destroy(error));
  response.stream = source.pipe(tee);
  return () => response.body ?? (overflow || !tee.writableFinished ? undefined : Buffer.concat(chunks, size));
}

/**
 * From a 2xx JSON response: top-level `token`, else `accessToken`, else `access_token` is stored
 * in the session as `token`. The value is stored as text and never evaluated later.
 */
export function extractToken(body: Buffer | undefined, session: Session): string | undefined {
  if (!body || body.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  for (const field of TOKEN_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') {
      session.set('token', value);
      return field;
    }
  }
  return undefined;
}
