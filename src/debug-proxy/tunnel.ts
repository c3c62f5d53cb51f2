/**
 * `CONNECT host:port`: a pass-through tunnel (https through the proxy). The bytes go both ways
 * as they are — nothing is decrypted or recorded — and the tunnel is reported when it closes:
 * where to, how many bytes each way, how long. A server that does not take the connection
 * within the proxy's `--timeout` gets the client a `502`; a tunnel through which nothing passes
 * either way for `--tunnel-idle` is closed, so idle clients cannot hold sockets for ever.
 */
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { codedError } from '../core/http/hop-failures.js';
import { toRequestError } from '../core/http/network-errors.js';

export interface TunnelReport {
  startedAt: number;
  /** `host:port` as the client asked. */
  target: string;
  /** Bytes from the client to the server, and back. */
  up: number;
  down: number;
  durationMs: number;
  /** Why it could not open (the client got a 502 saying so). */
  error?: string;
  /** Set when the proxy closed it because nothing passed either way for this many ms. */
  idleClosedMs?: number;
}

export interface TunnelContext {
  via: string;
  /** How long the server may take to accept the connection (the proxy's `--timeout`). */
  timeoutMs: number;
  /** How long an open tunnel may carry nothing either way before it is closed (`--tunnel-idle`). */
  idleMs: number;
  open: Set<Duplex>;
  done(report: TunnelReport): void;
}

/** `host:port` (IPv6 in brackets), or undefined when the CONNECT target is not one. */
function authorityOf(target: string): { host: string; port: number; url: URL } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(target);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) return undefined;
  // What an error names; a host the URL parser refuses (`[1:2:3]`) is no host to connect to.
  if (!URL.canParse(`https://${target}`)) return undefined;
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port, url: new URL(`https://${target}`) };
}

function answer(client: Duplex, status: string, via: string, text?: string): void {
  const body = text === undefined ? '' : `${text}\n`;
  const head = `HTTP/1.1 ${status}\r\nVia: ${via}\r\n${text === undefined ? '' : `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n`}\r\n`;
  client.write(head + body);
}

/**
 * Opens the tunnel; `open` tracks it (so stopping the proxy closes it), `done` hears of it once
 * it has closed.
 */
export function openTunnel(req: IncomingMessage, client: Socket, head: Buffer, context: TunnelContext): void {
  const target = req.url ?? '';
  const startedAt = Date.now();
  const started = performance.now();
  const where = authorityOf(target);
  if (!where) {
    client.on('error', () => undefined);
    answer(client, '400 Bad Request', context.via, `reqflow proxy: CONNECT needs host:port, got "${target.slice(0, 200)}"`);
    client.end();
    return;
  }
  const server: Socket = connect({ port: where.port, host: where.host, timeout: context.timeoutMs });
  context.open.add(client).add(server);
  let opened = false;
  let error: string | undefined;
  let idleClosedMs: number | undefined;
  // Not connected within --timeout (a host that drops the SYN): a 502, as a silent server's exchange gets.
  server.once('timeout', () => void (opened || server.destroy(codedError('timed out', 'REQFLOW_TIMEOUT'))));
  server.once('connect', () => {
    opened = true;
    server.setTimeout(0);
    answer(client, '200 Connection established', context.via);
    if (head.length > 0) server.write(head);
    server.pipe(client);
    client.pipe(server);
    // Every byte either way is read or written on the client's socket: its inactivity is the tunnel's.
    client.setTimeout(context.idleMs, () => {
      idleClosedMs = context.idleMs;
      client.destroy();
      server.destroy();
    });
  });
  server.on('error', (cause) => {
    if (opened) {
      client.destroy(); // a reset mid-tunnel ends the tunnel
      return;
    }
    error = toRequestError(cause, { method: 'CONNECT', url: where.url }, context.timeoutMs).message;
    answer(client, '502 Bad Gateway', context.via, `reqflow proxy: ${error}`);
    client.end();
  });
  // Ends travel through the pipes (each side's remaining bytes delivered first); an error cuts both.
  client.on('error', () => server.destroy());
  client.once('close', () => void (opened || server.destroy())); // gone before the server answered
  let closed = 0;
  const close = (): void => {
    if (++closed !== 2) return;
    context.open.delete(client);
    context.open.delete(server);
    context.done({ startedAt, target, up: server.bytesWritten, down: server.bytesRead, durationMs: performance.now() - started, ...(error !== undefined ? { error } : {}), ...(idleClosedMs !== undefined ? { idleClosedMs } : {}) });
  };
  server.once('close', close);
  client.once('close', close);
}
