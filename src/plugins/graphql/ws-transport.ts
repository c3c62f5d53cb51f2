import type { IncomingMessage } from 'node:http';
import { ExitCode, NetworkError, ReqflowError, UsageError } from '../../core/errors/index.js';
import { webSocketTlsOptions } from '../../core/http/tls-connect.js';
import { toRequestError } from '../../core/http/network-errors.js';
import { webSocketProtocolError } from '../../core/http/websocket-errors.js';
import { MAX_EVENT_BYTES } from '../../core/stream-limits.js';
import { withDefaultHeaders } from '../../core/http/send.js';
import { webSocketUrl } from '../../core/http/websocket-url.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { ResponseInfo } from '../../core/model.js';
import { EventQueue } from '../../core/event-queue.js';
import type { GraphqlState } from './transform.js';

/** Headers that belong to the HTTP POST or to the WebSocket handshake itself, not to the upgrade request. */
const NOT_FORWARDED = /^(content-type|content-length|accept|host|connection|upgrade|sec-websocket-.*)$/i;


/** `# @connectionParams {json}` ({{var}} substituted): the payload of graphql-ws's connection_init. */
async function connectionParams(ctx: RequestContext): Promise<Record<string, unknown> | undefined> {
  const raw = ctx.spec.annotations.connectionParams;
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(await ctx.variables.expand(raw));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UsageError(`# @connectionParams of request "${ctx.spec.name}" must be a JSON object`, { hint: 'e.g. # @connectionParams {"authorization": "Bearer {{token}}"}' });
}

/** graphql-ws reports a failed socket as an ErrorEvent-like object holding the real error. */
function socketError(event: unknown, url: URL, timeoutMs: number): ReqflowError {
  const cause = (event as { error?: unknown }).error ?? event;
  const message = cause instanceof Error ? cause.message : String((event as { message?: unknown }).message ?? cause);
  const refused = /Unexpected server response: (\d+)/.exec(message);
  if (refused) {
    return new ReqflowError(`the server refused the WebSocket upgrade at ${url.href}: HTTP ${refused[1]}`, {
      exitCode: ExitCode.httpFailure,
      hint: 'is this the GraphQL WebSocket endpoint, and does it need an Authorization header?',
    });
  }
  return webSocketProtocolError(cause, url.host) ?? toRequestError(cause instanceof Error ? cause : new Error(message), { method: 'GET', url }, timeoutMs);
}

/** 44xx close codes are the graphql-ws protocol's refusals (4401 Unauthorized, 4403 Forbidden, ...). */
function closeError(event: unknown, url: URL): ReqflowError {
  const { code, reason } = event as { code?: number; reason?: string };
  const what = `${code ?? '?'}${reason ? ` ${reason}` : ''}`;
  if (code !== undefined && code >= 4400 && code < 4500) {
    return new ReqflowError(`the server closed the GraphQL WebSocket: ${what}`, { exitCode: ExitCode.httpFailure, hint: 'check the operation, the token and any # @connectionParams' });
  }
  return new NetworkError(`the GraphQL WebSocket to ${url.host} closed: ${what}`, { hint: 'the server ended the connection before the operation completed' });
}

/** Resolves once the server acknowledged the connection; fails on error, close, time-out or Ctrl-C. */
function whenReady(ready: Promise<void>, ctx: RequestContext, url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new NetworkError(`GraphQL WebSocket to ${url.host} timed out after ${ctx.options.timeoutMs} ms`, { hint: 'raise it with --timeout MS' })), ctx.options.timeoutMs);
    const onAbort = (): void => reject(new NetworkError(`GraphQL WebSocket to ${url.href} was cancelled`));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    ready.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    });
  });
}

/**
 * Runs an operation over the graphql-ws protocol (`graphql-transport-ws`). The upgrade request
 * carries the request's headers (Authorization included); each result becomes one event.
 * `ws` and `graphql-ws/client` (not the package root, which loads all of graphql) are imported only here.
 */
export async function openWebSocket(ctx: RequestContext, payload: GraphqlState['payload']): Promise<{ response: ResponseInfo; close: () => void }> {
  const [{ createClient }, { default: WebSocket }] = await Promise.all([import('graphql-ws/client'), import('ws')]);
  const url = webSocketUrl(ctx.spec.url);
  const params = await connectionParams(ctx);
  const headers = Object.fromEntries(Object.entries(withDefaultHeaders(ctx.spec.headers)).filter(([name]) => !NOT_FORWARDED.test(name)));
  // Through the run's proxy when one applies (a CONNECT tunnel; TLS stays end to end).
  const agent = ctx.http.proxyAgent?.(url.href);
  const tls = webSocketTlsOptions(ctx.tlsOptions, url, agent !== undefined);
  const timeoutMs = ctx.options.timeoutMs;
  let upgrade: IncomingMessage | undefined;
  // graphql-ws makes the socket itself: kept here so that the queue can pause it (back-pressure).
  let socket: InstanceType<typeof WebSocket> | undefined;
  class HandshakeWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      // maxPayload: ws's own limit is 100 MiB a message; every stream stops at the same size.
      super(address, protocols, { headers, handshakeTimeout: timeoutMs, maxPayload: MAX_EVENT_BYTES, ...tls, ...(agent ? { agent } : {}) });
      socket = this;
      this.once('upgrade', (res: IncomingMessage) => (upgrade = res));
    }
  }
  const started = performance.now();
  const queue = new EventQueue({ pause: () => socket?.pause(), resume: () => socket?.resume() });
  let connected: () => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    connected = resolve;
    failed = reject;
  });
  let response: ResponseInfo | undefined;
  const transportError = (error: unknown): ReqflowError =>
    typeof (error as { code?: unknown }).code === 'number' && !(error instanceof Error) ? closeError(error, url) : socketError(error, url, timeoutMs);
  const client = createClient({
    url: url.href,
    webSocketImpl: HandshakeWebSocket,
    lazy: true,
    retryAttempts: 0,
    connectionAckWaitTimeout: timeoutMs,
    ...(params ? { connectionParams: params } : {}),
    on: {
      connected: () => connected(),
      message: (message) => {
        if (response) response.size += JSON.stringify(message).length;
      },
      error: (error) => failed(transportError(error)),
      closed: (event) => failed(transportError(event)),
    },
  });
  const unsubscribe = client.subscribe(payload, {
    next: (result) => queue.push({ event: 'next', data: JSON.stringify(result) }),
    error: (error) => {
      // An `error` message carries GraphQL errors (validation): render them like a response.
      if (Array.isArray(error)) {
        queue.push({ event: 'next', data: JSON.stringify({ errors: error }) });
        queue.end();
      } else queue.fail(transportError(error));
    },
    complete: () => queue.end(),
  });
  const close = (): void => {
    unsubscribe();
    // Its rejection (a socket ended before the acknowledgement) is the run's error already.
    void Promise.resolve(client.dispose()).catch(() => undefined);
    queue.end();
  };
  try {
    await whenReady(ready, ctx, url);
  } catch (error) {
    close();
    // graphql-ws closes its socket only once the server acknowledged it: one that never does
    // (no connection_ack) would keep the process alive forever. Ended here, at once.
    socket?.terminate();
    throw error;
  }
  const responseHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upgrade?.headers ?? {})) if (value !== undefined) responseHeaders[name] = value;
  response = {
    status: upgrade?.statusCode ?? 101,
    statusText: upgrade?.statusMessage ?? 'Switching Protocols',
    httpVersion: upgrade?.httpVersion ?? '1.1',
    headers: responseHeaders,
    durationMs: performance.now() - started,
    size: 0,
    events: queue,
  };
  return { response, close };
}
