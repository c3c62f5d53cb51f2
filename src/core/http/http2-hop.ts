/**
 * One hop over HTTP/2: a session for the origin (direct, h2c or through a proxy's tunnel), the
 * request on a stream, its failures worded as HTTP/1.1's are. Imported by one-hop.ts only for a
 * request that asks for HTTP/2 or goes to an origin that speaks only that.
 */
import type { ClientHttp2Session } from 'node:http2';
import { NetworkError, UsageError } from '../errors/index.js';
import { maskUrl } from '../mask.js';
import type { AgentPool } from './agents.js';
import { headersToSend } from './header-fields.js';
import { codedError, errorTarget, requestError } from './hop-failures.js';
import { MAX_INTERIM_RESPONSES } from './interim-flood.js';
import { http2Headers, http2Request, type Http2Mode, type Http2Sessions } from './http2.js';
import { notProcessedTwice, resendNote, unanswered, unprocessed, type Unanswered } from './http2-resend.js';
import { sendsAgain } from './idempotent.js';
import type { OutgoingRequest } from './outgoing-request.js';
import type { RawResponse } from './raw-response.js';
import { requestTarget } from './request-target.js';

/**
 * A hop that may go over HTTP/2 (asked for, or the origin speaks only that); `http1` sends it over
 * HTTP/1.1 when it does not. `earlier`: why it already went unanswered once (it is being sent again).
 */
export async function onceMaybeHttp2(request: OutgoingRequest, url: URL, agents: AgentPool, mode: Http2Mode, http1: () => Promise<RawResponse>, earlier?: Unanswered): Promise<RawResponse> {
  const proxy = request.proxy?.forUrl(url);
  // Through a proxy, HTTP/2 goes over a tunnel to the server. `--http2` for an http:// URL
  // stays HTTP/1.1 through it: the proxy forwards that, where it may refuse a tunnel (docs/http2.md).
  if (!(proxy && mode === 'prefer' && url.protocol === 'http:')) {
    const target = errorTarget(request, url);
    const connectMs = request.connectTimeoutMs ?? request.timeoutMs;
    const sessions = await agents.http2();
    // A request line's HTTP/2 on an http:// URL asks what curl's --http2 does there (kulala runs curl with it;
    // httpyac's got speaks HTTP/1.1 there): HTTP/2 where the server speaks it, else HTTP/1.1 (docs/http2.md).
    const sessionMode = mode === 'require' && url.protocol === 'http:' ? 'prefer' : mode;
    const session = await sessions.session(url, request.tls, sessionMode, connectMs, proxy).catch(async (error: unknown) => {
      throw await requestError(error, target, (error as NodeJS.ErrnoException).code === 'REQFLOW_CONNECT_TIMEOUT' ? connectMs : request.timeoutMs);
    });
    if (session) {
      if (proxy && earlier === undefined) request.onProxy?.(proxy, url);
      return onceHttp2(request, url, session, sessions, earlier, (why) => onceMaybeHttp2(request, url, agents, mode, http1, why));
    }
  }
  return http1();
}

/** What Node throws for a header it will not put in an HTTP/2 frame. */
const HEADER_ERRORS = new Set(['ERR_HTTP2_INVALID_HEADER_VALUE', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_CHAR', 'ERR_HTTP2_HEADER_SINGLE_VALUE', 'ERR_HTTP2_INVALID_CONNECTION_HEADERS', 'ERR_HTTP2_INVALID_PSEUDOHEADER']);

/** Codes of `session.request()` on a session closing or closed since it was handed out (a GOAWAY read meanwhile): nothing was sent. */
const CLOSING = new Set(['ERR_HTTP2_GOAWAY_SESSION', 'ERR_HTTP2_INVALID_SESSION']);

/**
 * The request on a stream of `session`. Unanswered in a way that allows it (http2-resend.ts), it
 * goes once more through `again`, on a new connection; `earlier`: why it already went unanswered.
 */
async function onceHttp2(request: OutgoingRequest, url: URL, session: ClientHttp2Session, sessions: Http2Sessions, earlier: Unanswered | undefined, again: (why: Unanswered) => Promise<RawResponse>): Promise<RawResponse> {
  const cancelled = (): NetworkError => new NetworkError(`${request.method} ${url.origin}${url.pathname} was cancelled`);
  const target = errorTarget(request, url);
  // A large file body is looked at first: the request's head goes out as the stream opens, and a file that changed is refused with nothing sent.
  if (typeof request.body === 'object' && 'unchanged' in request.body) await request.body.unchanged();
  // Looked at after that wait, not before: the abort hook below hears only a Ctrl-C still to come,
  // and one pressed meanwhile left the request waiting for --timeout.
  if (request.abort?.signal.aborted) throw cancelled();
  /**
   * The request went unanswered for `why`: sent again on a new connection where it may be (its
   * answer returned), exit 4 if the server did not process it either time; else undefined, and
   * its own failure is told.
   */
  const afterUnanswered = (why: Unanswered): Promise<RawResponse> | undefined => {
    if (sendsAgain(request.method, unprocessed(why), earlier !== undefined)) {
      sessions.retire(session);
      request.onResend?.(url, resendNote(why, request.method));
      return again(why);
    }
    if (earlier && unprocessed(earlier) && unprocessed(why)) throw notProcessedTwice(earlier, why, target);
    return undefined;
  };
  const writtenBefore = sessions.bytesWritten(session);
  let exchange;
  try {
    exchange = http2Request(
      session,
      { headers: { ...http2Headers(request.method, url, headersToSend(request)), ':path': requestTarget(request.url, url, request.asteriskForm) }, ...(request.body !== undefined ? { body: request.body } : {}), timeoutMs: request.timeoutMs, streaming: request.keepAliveAfterHeaders === true, maxInterim: MAX_INTERIM_RESPONSES },
      sessions.streams,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const resent = CLOSING.has(code) ? afterUnanswered({ kind: 'unsent' }) : undefined;
    if (resent) return resent;
    if (!HEADER_ERRORS.has(code)) throw await requestError(error, target, request.timeoutMs);
    // A header HTTP/2 cannot carry (Node checks names and values before sending).
    throw new UsageError(`${request.method} ${maskUrl(url.href)} cannot go over HTTP/2: ${(error as Error).message}`, { hint: 'remove HTTP/2 (and --http2) to send it over HTTP/1.1' });
  }
  const stop = request.abort?.whenAborted(() => exchange.cancel(codedError('cancelled', 'ABORT_ERR')));
  try {
    return await exchange.response;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ABORT_ERR') throw cancelled();
    const { id, rstCode } = exchange.stream();
    const written = sessions.bytesWritten(session);
    // Whether any byte went out since the stream was submitted: none, and none of it left reqflow.
    const left = written === undefined || written !== writtenBefore;
    const why = unanswered(error, rstCode, { id, left, connectionGone: session.destroyed, lastStreamId: sessions.lastStreamId(session) });
    const resent = why && afterUnanswered(why);
    if (resent) return await resent;
    throw await requestError(error, target, request.timeoutMs);
  } finally {
    stop?.();
  }
}
