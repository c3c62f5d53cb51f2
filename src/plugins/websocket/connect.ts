/**
 * One WebSocket request: the upgrade with the request's headers (auth applied), TLS settings
 * and proxy, then the script's messages in order — waiting for the server where it says
 * `=== wait-for-server` — while every message received becomes an event, printed as it comes.
 * `ws` is imported only for such a request.
 */
import { isUtf8 } from 'node:buffer';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { NetworkError, UsageError } from '../../core/errors/index.js';
import { EventQueue } from '../../core/event-queue.js';
import { checkHeaderFields } from '../../core/http/header-fields.js';
import { toRequestError } from '../../core/http/network-errors.js';
import { webSocketProtocolError } from '../../core/http/websocket-errors.js';
import { MAX_EVENT_BYTES } from '../../core/stream-limits.js';
import { withDefaultHeaders } from '../../core/http/send.js';
import { webSocketUrl } from '../../core/http/websocket-url.js';
import { webSocketTlsOptions } from '../../core/http/tls-connect.js';
import { resolveBody } from '../../core/stages/request-body.js';
import type { ResponseInfo } from '../../core/model.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { Step } from './script.js';

/** Headers of the handshake itself (ws writes them) or of a body there is none of. */
const NOT_FORWARDED = /^(content-type|content-length|host|connection|upgrade|sec-websocket-(key|version|extensions))$/i;
/** Close codes of a connection that ended as it should (RFC 6455 §7.4.1): 1005 is "no code given". */
const NORMAL_CLOSE = new Set([1000, 1001, 1005]);


function headersOf(res: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = value;
  return headers;
}

export interface OpenedSocket {
  /** 101 with the messages as `events`; or the server's answer when it refused the upgrade. */
  response: ResponseInfo;
  close(): void;
}

/** What a step sends: `{{templates}}` of a `.ws` message resolved now, a JSON message checked. */
/**
 * A message as it goes: text (templates resolved when `resolve`), or, with included files, their
 * bytes — sent as a text frame when they are UTF-8 (as RFC 6455 requires of text), else binary.
 */
async function messageOf(ctx: RequestContext, step: Extract<Step, { send: string }>, resolve: boolean): Promise<string | Buffer> {
  if (step.parts) return (await resolveBody({ ...ctx.spec, bodyParts: step.parts }, ctx.baseDir, ctx.variables)) as Buffer;
  const text = resolve ? await ctx.variables.expand(step.send) : step.send;
  checkJson(ctx, step, text);
  return text;
}

/** A `# @type json` message that is not JSON: exit 2 naming its line. */
function checkJson(ctx: RequestContext, step: Extract<Step, { send: string }>, text: string): void {
  if (step.json !== true) return;
  try {
    JSON.parse(text);
  } catch (error) {
    const where = `${ctx.spec.source.file}:${step.line ?? ctx.spec.source.line}`;
    throw new UsageError(`${where}: message ${step.name ? `"${step.name}" ` : ''}is # @type json but not JSON (${(error as Error).message})`, { hint: 'fix the message, or mark it # @type text' });
  }
}

/**
 * The messages that can be checked before the upgrade goes — every one whose text is known now
 * (`resolve`: a `.ws` file's templates are resolved as each message goes, so only those without
 * any) — so that a message that could never be sent is exit 2 with nothing sent, not a
 * connection opened and dropped.
 */
export function checkMessages(ctx: RequestContext, steps: readonly Step[], resolve: boolean): void {
  for (const step of steps) if ('send' in step && !step.parts && !(resolve && step.send.includes('{{'))) checkJson(ctx, step, step.send);
}

export async function openWebSocket(ctx: RequestContext, steps: readonly Step[], resolveMessages: boolean, subprotocol?: string): Promise<OpenedSocket> {
  const { default: WebSocket } = await import('ws');
  const url = webSocketUrl(ctx.spec.url);
  const headers = Object.fromEntries(Object.entries(withDefaultHeaders(ctx.spec.headers)).filter(([name]) => !NOT_FORWARDED.test(name)));
  // Refused as an HTTP request's would be (a character past ASCII, a control character): nothing sent.
  checkHeaderFields('GET', url, headers);
  const agent = ctx.http.proxyAgent?.(url.href);
  const timeoutMs = ctx.options.timeoutMs;
  const target = { method: 'GET', url };
  const started = performance.now();
  const socket = new WebSocket(url, subprotocol ? [subprotocol] : undefined, {
    headers,
    handshakeTimeout: timeoutMs,
    // ws's own limit is 100 MiB a message, its fragments held until the last: the SSE limit instead.
    maxPayload: MAX_EVENT_BYTES,
    ...webSocketTlsOptions(ctx.tlsOptions, url, agent !== undefined),
    ...(agent ? { agent } : {}),
  });
  const queue = new EventQueue(socket);
  let received = 0;
  let waited = 0;
  let wake: (() => void) | undefined;
  const note = (text: string): void => {
    if (ctx.options.verbose) ctx.output.err(`reqflow: ${ctx.redact(text)}`);
  };

  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    received += 1;
    queue.push(isBinary ? { event: 'binary', data: bytes.toString('base64') } : { event: 'message', data: bytes.toString('utf8') });
    wake?.();
  });
  socket.on('close', (code: number, reason: Buffer) => {
    const why = `${code}${reason.length > 0 ? ` ${reason.toString('utf8')}` : ''}`;
    if (NORMAL_CLOSE.has(code)) {
      note(`the WebSocket closed: ${why}`);
      queue.end();
    } else queue.fail(new NetworkError(`the WebSocket to ${url.host} closed with ${why}`, { hint: 'the server ended the connection abnormally' }));
    wake?.();
  });
  // Listening from the start: a frame that came with the 101 is read before the open handshake's
  // awaiter runs, and its error (a bad close code) was lost, leaving only "closed with 1006".
  socket.on('error', (error: Error) => queue.fail(webSocketProtocolError(error, url.host) ?? toRequestError(error, target, timeoutMs)));
  const onAbort = (): void => {
    socket.terminate();
    queue.end();
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  /** The script's messages, in order, once the connection is open. */
  const play = async (): Promise<void> => {
    let sent = 0;
    let receivedAtSend = 0;
    for (const step of steps) {
      if (socket.readyState !== WebSocket.OPEN) return;
      if ('send' in step) {
        const text = await messageOf(ctx, step, resolveMessages);
        if (typeof text !== 'string') socket.send(text, { binary: step.binary === true || !isUtf8(text) });
        else if (step.binary === true) socket.send(Buffer.from(text, 'utf8'), { binary: true });
        else socket.send(text);
        receivedAtSend = received;
        note(`→ message ${(sent += 1)}${step.name ? ` "${step.name}"` : ''} sent (${Buffer.byteLength(text)} bytes)`);
        continue;
      }
      // Each wait takes one message the server sent after the previous one.
      const timer = step.timeoutMs === undefined ? undefined : setTimeout(() => {
        queue.fail(new NetworkError(`no message from the server within ${step.timeoutMs ?? 0} ms${step.name ? ` after "${step.name}"` : ''}`, { hint: 'raise # @timeout of the message' }));
        socket.terminate();
        wake?.();
      }, step.timeoutMs);
      if (step.afterSend === true) waited = Math.max(waited, receivedAtSend);
      while (received <= waited && socket.readyState === WebSocket.OPEN) await new Promise<void>((resolve) => (wake = resolve));
      clearTimeout(timer);
      waited += 1;
    }
    // A script that ends by waiting for the server is done once those replies are in — unless
    // httpyac's `# @keepStreaming` asks to listen on until the server closes or the user stops it.
    const keep = ctx.spec.annotations['keep-streaming'] !== undefined;
    if (!keep && steps.at(-1) !== undefined && 'wait' in (steps.at(-1) as Step) && socket.readyState === WebSocket.OPEN) socket.close(1000);
  };

  const outcome = await new Promise<{ upgrade: IncomingMessage } | { refused: IncomingMessage }>((resolve, reject) => {
    let upgrade: IncomingMessage | undefined;
    socket.once('upgrade', (res: IncomingMessage) => (upgrade = res));
    socket.once('open', () => resolve({ upgrade: upgrade as IncomingMessage }));
    // The server answered the upgrade with a plain response (a 401, a 404): shown as such.
    socket.once('unexpected-response', (_req: ClientRequest, res: IncomingMessage) => resolve({ refused: res }));
    socket.once('error', (error: Error) => {
      ctx.signal.removeEventListener('abort', onAbort);
      reject(/timed out|timeout/i.test(error.message) ? Object.assign(error, { code: 'REQFLOW_TIMEOUT' }) : error); // ws: "Opening handshake has timed out"
    });
  }).catch((error: unknown) => {
    throw toRequestError(error, target, timeoutMs);
  });

  if ('refused' in outcome) {
    ctx.signal.removeEventListener('abort', onAbort);
    const res = outcome.refused;
    return {
      response: { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', httpVersion: res.httpVersion, headers: headersOf(res), durationMs: performance.now() - started, size: 0, stream: res },
      close: () => res.destroy(),
    };
  }
  play().catch((error: unknown) => {
    queue.fail(error);
    socket.terminate();
  });
  const res = outcome.upgrade;
  return {
    response: { status: res.statusCode ?? 101, statusText: res.statusMessage ?? 'Switching Protocols', httpVersion: res.httpVersion, headers: headersOf(res), durationMs: performance.now() - started, size: 0, events: queue },
    close: () => {
      ctx.signal.removeEventListener('abort', onAbort);
      if (socket.readyState === WebSocket.OPEN) socket.close(1000);
      else socket.terminate();
      queue.end();
    },
  };
}
