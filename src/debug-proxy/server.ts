/**
 * The proxy's server: absolute-form requests are forwarded (forward.ts), CONNECT opens a tunnel
 * (tunnel.ts). Stopping it closes the listener, every client connection and every tunnel.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createGuardedServer } from '../core/guarded-server.js';
import { httpAddress, listenOn } from '../core/listen.js';
import type { RecordedExchange } from '../history/entry.js';
import { forwardRequest } from './forward.js';
import { openTunnel, type TunnelReport } from './tunnel.js';

export interface ProxyServer {
  port: number;
  /** `http://127.0.0.1:8888`: what HTTP_PROXY and `curl -x` take. */
  url: string;
  close(): Promise<void>;
}

export interface ProxyOptions {
  port: number;
  host: string;
  cwd: string;
  /** How long a server may stay silent before its exchange fails (502), or take to accept a tunnel. */
  timeoutMs: number;
  /** How long a tunnel may carry nothing either way before it is closed. */
  tunnelIdleMs: number;
  exchange(exchange: RecordedExchange): void;
  tunnel(report: TunnelReport): void;
  refused(line: string): void;
}

export async function startProxyServer(options: ProxyOptions): Promise<ProxyServer> {
  // Keep-alive to the servers behind: a client's burst of requests does not open a socket each.
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const tunnels = new Set<Duplex>();
  // A head Node's parser refuses (a control character in a header, a smuggling shape) gets its 400 and a `proxy: refused` line.
  const server = createGuardedServer(options.refused);
  const context = { via: '', address: '' };
  server.on('request', (req, res) => forwardRequest(req, res, { ...context, agents, cwd: options.cwd, timeoutMs: options.timeoutMs, done: options.exchange, refused: options.refused }));
  // Node's 'connect' hands over the client's net.Socket (typed as a Duplex).
  server.on('connect', (req, socket: Socket, head: Buffer) => openTunnel(req, socket, head, { via: context.via, timeoutMs: options.timeoutMs, idleMs: options.tunnelIdleMs, open: tunnels, done: options.tunnel }));
  const port = await listenOn(server, options.port, options.host);
  context.address = httpAddress(options.host, port);
  // RFC 9110 §7.6.3: received-protocol, then this proxy (its address tells two reqflow proxies apart).
  context.via = `1.1 ${context.address.slice('http://'.length)} (reqflow)`;
  return {
    port,
    url: context.address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
        agents.http.destroy();
        agents.https.destroy();
      }),
  };
}
