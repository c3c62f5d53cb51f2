/**
 * One proxy request in absolute form (`GET http://host/path HTTP/1.1`): forwarded upstream with
 * its hop-by-hop fields dropped and `Via` added, both bodies streamed through (their first
 * HISTORY_BODY_LIMIT bytes kept for the record), and the exchange handed over when it ends —
 * answered, failed (502 with a one-line reason) or left by the client.
 */
import { NO_BODY_FRAMING } from '../core/methods.js';
import type { Agent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ExitCode } from '../core/errors/index.js';
import { isIdempotent } from '../core/http/idempotent.js';
import { toRequestError } from '../core/http/network-errors.js';
import { HISTORY_BODY_LIMIT, PROXY_SOURCE, type RecordedExchange } from '../history/entry.js';
import { BodyHead } from './body-head.js';
import { flat, forwardedHeaders, headerMap, pairsOf, unsendableHeader } from './headers.js';
import { openUpstream } from './upstream.js';
import { notProxyRequestPage } from './usage-page.js';

/** What a server closing a kept-alive connection under a request looks like. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

export interface ForwardContext {
  /** The proxy's `Via` line (`1.1 127.0.0.1:8888 (reqflow)`). */
  via: string;
  /** The proxy's address, for the page that explains how to use it. */
  address: string;
  agents: { http: Agent; https: Agent };
  /** How long a server may stay silent (connecting, before its answer, within its body) before the exchange fails. */
  timeoutMs: number;
  /** The folder the proxy runs in: the recorded exchanges' "file" is `(proxy)` there. */
  cwd: string;
  /** Once per forwarded exchange, when it has ended. */
  done(exchange: RecordedExchange): void;
  /** A request that was not forwarded (not a proxy request, a loop). */
  refused(line: string): void;
}

function sendText(res: ServerResponse, status: number, text: string, via: string): void {
  const body = Buffer.from(text);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, Via: via });
  res.end(body);
}

/** The absolute-form target, or undefined for origin-form (`/path`), asterisk-form and anything not http(s). */
function targetOf(req: IncomingMessage): URL | undefined {
  const target = req.url ?? '';
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    return new URL(target);
  } catch {
    return undefined;
  }
}

export function forwardRequest(req: IncomingMessage, res: ServerResponse, context: ForwardContext): void {
  const method = req.method ?? 'GET';
  const url = targetOf(req);
  if (!url) {
    sendText(res, 400, notProxyRequestPage(method, req.url ?? '', context.address), context.via);
    context.refused(`${method} ${(req.url ?? '').slice(0, 200)}: 400, not a proxy request (an absolute http:// URL)`); // a 16 KiB target is not a line to read
    req.resume();
    return;
  }
  // A request that already passed this proxy would come back to it for ever.
  if ((req.headers.via ?? '').includes(context.via)) {
    sendText(res, 508, `reqflow proxy: ${method} ${url.host} loops back to this proxy\n`, context.via);
    context.refused(`${method} ${url.host}: 508, the request loops back to this proxy`);
    req.resume();
    return;
  }
  // What reqflow itself would refuse to send is not forwarded, recorded nor saved (its value unsaid: it may be a credential).
  const unsendable = unsendableHeader(req.rawHeaders);
  if (unsendable) {
    const why = `header ${unsendable.name} holds ${unsendable.holds}`;
    sendText(res, 400, `reqflow proxy: ${why}: not forwarded (header values are ASCII: percent-encode it)\n`, context.via);
    context.refused(`${method} ${url.host}: 400, ${why} (header values are ASCII)`);
    req.resume();
    return;
  }
  const startedAt = Date.now();
  const started = performance.now();
  const sent = [['Host', url.host] as [string, string], ...forwardedHeaders(req.rawHeaders, context.via, ['host'])];
  // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): Node would
  // frame a POST's piped body as chunked (an empty chunked body the client never sent); its length, 0, says the same as the client.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined && !NO_BODY_FRAMING.has(method)) sent.push(['Content-Length', '0']);
  const exchange: RecordedExchange = {
    startedAt,
    durationMs: 0,
    file: join(context.cwd, PROXY_SOURCE),
    name: `${method} ${url.host}${url.pathname}`,
    line: 1,
    method,
    url: url.href,
    requestHeaders: headerMap(sent),
    requestSize: 0,
  };
  const requestBody = new BodyHead(HISTORY_BODY_LIMIT);
  const responseBody = new BodyHead(HISTORY_BODY_LIMIT);
  let failure: string | undefined;
  const fail = (error: unknown): void => {
    if (failure !== undefined) return;
    failure = toRequestError(error, { method, url }, context.timeoutMs).message;
    if (!res.headersSent) sendText(res, 502, `reqflow proxy: ${failure}\n`, context.via);
    else res.destroy(); // the answer was under way: the client must not take a cut body for a whole one
  };
  const target = { url, method, headers: flat(sent), agents: context.agents, timeoutMs: context.timeoutMs };
  let retried = false;
  const failed = (error: unknown, request: ClientRequest): void => {
    // A kept-alive connection the server closed as this request went out (RFC 9112 §9.3.1): a
    // request without a body that is safe to repeat goes once more on a new connection, as reqflow send does.
    const stale = STALE_CONNECTION.has((error as NodeJS.ErrnoException).code ?? '') && request.reusedSocket;
    if (!retried && stale && !exchange.response && isIdempotent(method) && req.readableEnded && requestBody.size === 0) {
      retried = true;
      upstream = openUpstream(target, answered, failed);
      upstream.end();
      return;
    }
    fail(error);
  };
  const answered = (answer: IncomingMessage): void => {
    const headers = forwardedHeaders(answer.rawHeaders, context.via);
    exchange.response = { status: answer.statusCode ?? 0, statusText: answer.statusMessage ?? '', headers: headerMap(headers.slice(0, -1)), size: 0 };
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, flat(headers));
    answer.on('data', (chunk: Buffer) => responseBody.add(chunk));
    answer.on('error', fail);
    // The trailer fields, which come after the body: passed on (before the pipe below ends the answer) and recorded.
    answer.once('end', () => {
      if (answer.rawTrailers.length === 0 || !exchange.response) return;
      const trailers = pairsOf(answer.rawTrailers);
      res.addTrailers(trailers);
      exchange.response.trailers = headerMap(trailers);
    });
    answer.pipe(res);
  };
  req.on('data', (chunk: Buffer) => requestBody.add(chunk));
  let upstream = openUpstream(target, answered, failed);
  req.on('error', (error) => upstream.destroy(error));
  req.pipe(upstream);
  res.on('close', () => {
    if (!res.writableFinished && failure === undefined) {
      failure = 'the client closed the connection before the answer was complete';
      upstream.destroy();
    }
    exchange.durationMs = performance.now() - started;
    exchange.requestSize = requestBody.size;
    const sentBody = requestBody.bytes();
    if (sentBody) exchange.requestBody = sentBody;
    if (exchange.response) {
      exchange.response.size = responseBody.size;
      const body = responseBody.bytes();
      if (body) exchange.response.body = body;
    }
    if (failure !== undefined) exchange.error = { message: failure, exitCode: ExitCode.network };
    context.done(exchange);
  });
}
