/**
 * One proxy request in absolute form (`GET http://host/path HTTP/1.1`): forwarded upstream with
 * its hop-by-hop fields dropped and `Via` added, both bodies streamed through (their first
 * HISTORY_BODY_LIMIT bytes kept for the record), and the exchange handed over when it ends —
 * answered, failed (502 with a one-line reason) or left by the client.
 */
import { request as httpRequest, type Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { ExitCode, NetworkError } from '../core/errors/index.js';
import { codedError, MAX_INTERIM_RESPONSES } from '../core/http/hop-failures.js';
import { toRequestError } from '../core/http/network-errors.js';
import { HISTORY_BODY_LIMIT, PROXY_SOURCE, type RecordedExchange } from '../history/entry.js';
import { BodyHead } from './body-head.js';
import { flat, forwardedHeaders, headerMap } from './headers.js';
import { notProxyRequestPage } from './usage-page.js';

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
    context.refused(`${method} ${req.url ?? ''}: 400, not a proxy request (an absolute http:// URL)`);
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
  const startedAt = Date.now();
  const started = performance.now();
  const sent = [['Host', url.host] as [string, string], ...forwardedHeaders(req.rawHeaders, context.via, ['host'])];
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
  const https = url.protocol === 'https:';
  const upstream = (https ? httpsRequest : httpRequest)({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method,
    headers: flat(sent),
    setHost: false,
    agent: https ? context.agents.https : context.agents.http,
  });
  let failure: string | undefined;
  const fail = (error: unknown): void => {
    if (failure !== undefined) return;
    failure = toRequestError(error, { method, url }, context.timeoutMs).message;
    if (!res.headersSent) sendText(res, 502, `reqflow proxy: ${failure}\n`, context.via);
    else res.destroy(); // the answer was under way: the client must not take a cut body for a whole one
  };
  upstream.on('error', fail);
  // A server that never answers, or stops half-way, must not hold the client (and a socket) for ever.
  upstream.setTimeout(context.timeoutMs, () => upstream.destroy(codedError('timed out', 'REQFLOW_TIMEOUT')));
  // Interim responses are not passed on, and each resets the silence: an endless stream of them must end.
  let interim = 0;
  upstream.on('information', () => {
    if (++interim > MAX_INTERIM_RESPONSES) upstream.destroy(codedError(`more than ${MAX_INTERIM_RESPONSES} interim (1xx) responses and no final one`, 'REQFLOW_INTERIM_FLOOD'));
  });
  // The proxy drops `Upgrade`: a 101 was asked for by nobody (without a listener Node would leave the exchange hanging).
  upstream.on('upgrade', (answer, socket) => {
    socket.destroy();
    fail(new NetworkError(`${method} ${url.origin}${url.pathname}: the server switched protocols (${answer.statusCode ?? 101}) without being asked`));
  });
  upstream.on('response', (answer) => {
    // `099` or `000` is no status; Node would throw writing it on (and the proxy would stop).
    if ((answer.statusCode ?? 0) < 100) {
      fail(codedError(String(answer.statusCode ?? 0), 'REQFLOW_BAD_STATUS'));
      upstream.destroy();
      return;
    }
    const headers = forwardedHeaders(answer.rawHeaders, context.via);
    exchange.response = { status: answer.statusCode ?? 0, statusText: answer.statusMessage ?? '', headers: headerMap(headers.slice(0, -1)), size: 0 };
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, flat(headers));
    answer.on('data', (chunk: Buffer) => responseBody.add(chunk));
    answer.on('error', fail);
    answer.pipe(res);
  });
  req.on('data', (chunk: Buffer) => requestBody.add(chunk));
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
