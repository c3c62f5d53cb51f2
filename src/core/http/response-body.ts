/** A response as the pipeline sees it: its headers, and its body as a stream — decoded, counted, recorded, failing in plain words. */
import { PassThrough, Readable } from 'node:stream';
import type { AbortHooks } from '../abort-hooks.js';
import type { ResponseInfo } from '../model.js';
import { recordBody } from '../token-extraction.js';
import type { RawResponse } from './raw-response.js';
import { codedError, requestError } from './hop-failures.js';

const noop = (): void => undefined;

/** The request a body belongs to, and what of the body is kept (see recordBody). */
export interface RecordTarget {
  method: string;
  url: URL;
  recordLimit?: number | undefined;
  recordHead?: number | undefined;
}

/** Set when `--max-time` applies: what a cancellation becomes once the deadline has passed. */
export interface DeadlineCheck {
  fired(): boolean;
  error(): Error;
}

export function toResponseInfo(res: RawResponse, durationMs: number, target: RecordTarget, abort?: AbortHooks, deadline?: DeadlineCheck): ResponseInfo {
  const headers: Record<string, string | string[]> = {};
  for (const name in res.headers) {
    const value = res.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const info: ResponseInfo = {
    status: res.statusCode,
    statusText: res.statusMessage,
    httpVersion: res.httpVersion,
    headers,
    durationMs,
    size: 0,
  };
  info.stream = bodyStream(res, info, target, abort, deadline);
  return info;
}

/**
 * The body as its reader sees it. Counting (and recording) happens as the source's chunks are
 * handed on to a plain Readable — not a Transform piped from the source, whose writable side and
 * pipe listeners a batch of small responses paid for on every request. The hand-over pauses the
 * source while the reader is behind, so nothing flows before a renderer is attached.
 * Socket errors surface as the same one-line NetworkError as errors before the headers.
 */
function bodyStream(res: RawResponse, info: ResponseInfo, target: RecordTarget, abort?: AbortHooks, deadline?: DeadlineCheck): Readable {
  const source = mayBeCoded(res.headers) ? decodedLater(res) : res.body;
  const stream = new Readable({
    read() {
      if (!failed) source.resume();
    },
  });
  // A body that fails before its reader came (a connection error in the head's packet) keeps its
  // failure in `stream.errored`, which readers look at first: not an unhandled 'error'.
  stream.on('error', noop);
  // The first MiB of a 2xx JSON body (token extraction), or more of any body (chained requests), kept here rather than in a second stream.
  const record = recordBody(stream, info, target.recordLimit, target.recordHead);
  const onData = (chunk: Buffer): void => {
    if (stream.destroyed) return; // the reader let go: 'close' stops the source next
    info.size += chunk.length;
    record?.(chunk);
    if (!stream.push(chunk)) source.pause();
  };
  // The first failure ends the body: no more of it flows while its words load.
  let failed = false;
  const onEnd = (): void => {
    // A reset that ended a body without a length is no end: the body was cut (curl: error 56).
    const reset = res.resetBeforeEnd?.();
    if (reset) return fail(reset);
    const trailers = res.trailers();
    if (trailers) info.trailers = trailers as Record<string, string | string[]>;
    record?.(null);
    stream.push(null);
  };
  const fail = (error: unknown, timeoutMs = 0): void => {
    if (stream.destroyed || failed) return;
    failed = true;
    source.off('data', onData).off('end', onEnd);
    void requestError(error, target, timeoutMs).then((worded) => stream.destroy(worded));
  };
  source.on('error', (error) => fail(error));
  // However the transport's body ends early — an error before anyone listened, or a close with
  // neither an error nor its end — the request fails: a body never just stops (an unsettled
  // request with nothing left to wait for would end the process with exit 0).
  const early = res.body.errored;
  if (early) fail(early);
  source.once('close', () => {
    if (!source.readableEnded) fail(source.errored ?? res.body.errored ?? codedError('closed', 'ECONNRESET'));
  });
  // A reset mid-body surfaces as 'aborted' (or an error): give it the same clear wording; bytes
  // that broke the framing (a bad chunk size) are named as such, not as a reset.
  res.body.on('aborted', () => fail(res.framingError?.() ?? codedError('aborted', 'ECONNRESET')));
  const stopWatchingIdle = res.watchIdle(() => fail(codedError('timed out', 'REQFLOW_TIMEOUT'), res.idleTimeoutMs()));
  // Ctrl-C while a body (or an endless stream) arrives ends it at once.
  const onAbort = (): void => {
    if (deadline?.fired()) {
      if (!stream.destroyed && !failed) stream.destroy(deadline.error());
    } else fail(codedError('cancelled', 'ABORT_ERR'));
  };
  const stopWatchingAbort = abort?.whenAborted(onAbort) ?? noop;
  stream.once('close', () => {
    stopWatchingIdle();
    stopWatchingAbort();
    source.off('data', onData).off('end', onEnd);
    if (!source.readableEnded) source.destroy();
  });
  source.on('data', onData).once('end', onEnd);
  return stream;
}

/**
 * Whether a body may be in a coding (content-coding.ts decides): the usual response — no
 * Content-Encoding, chunked or not — is not.
 */
export function mayBeCoded(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const transfer = headers['transfer-encoding'];
  return headers['content-encoding'] !== undefined || (transfer !== undefined && transfer !== 'chunked');
}

/**
 * A body in a content coding, decoded by content-coding.ts: loaded for such a body only (from
 * the bundle the import settles before any of the body's bytes are handled).
 */
function decodedLater(res: RawResponse): Readable {
  const out = new PassThrough();
  void import('./content-coding.js').then(({ decodedBody }) => {
    if (out.destroyed) return; // the reader let go already
    const decoded = decodedBody(res.headers, res.body);
    decoded.on('error', (error) => out.destroy(error));
    decoded.pipe(out);
  });
  return out;
}
