/**
 * Local servers that misbehave on purpose, for the reliability tests (bad inputs, security,
 * load). All bind 127.0.0.1 with port 0. None echoes credentials back, so a secret found in
 * reqflow's output can only have come from reqflow itself; tests read `requests` to see what
 * arrived.
 *
 *   /ok               200 {"ok":true}
 *   /text             200 text/plain
 *   /hang             accepts, never answers
 *   /stall            headers and a first chunk, then silence
 *   /reset            headers and half a JSON body, then the socket is destroyed
 *   /big?bytes=N      200 JSON document of about N bytes
 *   /bad-utf8         200 application/json with bytes that are not UTF-8
 *   /bad-json         200 application/json that is not JSON
 *   /html             200 text/html (a login page where JSON was expected)
 *   /json?body=TEXT   200 application/json with TEXT as the body (login responses)
 *   /status/NNN       NNN {"status":NNN}
 *   /oauth/html       token endpoint answering with an HTML page
 *   /oauth/garbage    token endpoint answering 200 application/json that is not JSON
 *   /oauth/empty      token endpoint answering 200 {} (no access_token)
 *   /oauth/denied     token endpoint answering 401 {"error":"invalid_client"}
 */
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { seededRandom } from '../../bench/lib/seeded-random.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FaultServer {
  url: string;
  port: number;
  requests: Received[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function bigJson(bytes: number): string {
  const item = '"' + 'x'.repeat(1000) + '"';
  const count = Math.max(1, Math.ceil(bytes / (item.length + 1)));
  return `{"items":[${new Array(count).fill(item).join(',')}]}`;
}

async function handle(req: IncomingMessage, res: ServerResponse, requests: Received[]): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const body = await readBody(req);
  requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  const path = url.pathname;
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) return send(res, Number(status[1]), 'application/json', JSON.stringify({ status: Number(status[1]) }));
  switch (path) {
    case '/hang':
      return; // never answers; the socket is closed by close()
    case '/stall':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first chunk\n');
      return;
    case '/reset':
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"items":[1,2,');
      setTimeout(() => req.socket.destroy(), 30);
      return;
    case '/big':
      return send(res, 200, 'application/json', bigJson(Number(url.searchParams.get('bytes') ?? '10000')));
    case '/bad-utf8':
      return send(res, 200, 'application/json', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]));
    case '/bad-json':
      return send(res, 200, 'application/json', '{"name": nope,');
    case '/html':
    case '/oauth/html':
      return send(res, 200, 'text/html; charset=utf-8', '<!doctype html><html><body><form>Sign in</form></body></html>');
    case '/oauth/garbage':
      return send(res, 200, 'application/json', '\u0001\u0002 not json at all {');
    case '/oauth/empty':
      return send(res, 200, 'application/json', '{}');
    case '/oauth/denied':
      return send(res, 401, 'application/json', '{"error":"invalid_client","error_description":"client authentication failed"}');
    case '/json':
      return send(res, 200, 'application/json', url.searchParams.get('body') ?? '{}');
    case '/text':
      return send(res, 200, 'text/plain; charset=utf-8', 'plain text\n');
    default:
      return send(res, 200, 'application/json', '{"ok":true}');
  }
}

function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Closes a server and every socket it still holds (hanging and stalled responses too). */
function closer(server: Server | TcpServer, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** Records in `sockets` each socket `server` accepts, until it closes: what is left, a test can destroy. */
export function track(server: Server | TcpServer, sockets = new Set<Socket>()): Set<Socket> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

export async function startFaultServer(): Promise<FaultServer> {
  const requests: Received[] = [];
  const server = createHttpServer((req, res) => void handle(req, res, requests));
  const sockets = track(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, requests, close: closer(server, sockets) };
}

/** A TCP server on 127.0.0.1 that hands each connection to `onSocket` (a test writes exactly the bytes it wants); `close` destroys what is still open. */
export async function startRawServer(onSocket: (socket: Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createTcpServer(onSocket);
  const sockets = track(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: closer(server, sockets) };
}

/** A TCP server that answers every connection with bytes that are not HTTP. */
export async function startGarbageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end('\u0000\u0001SSH-2.0-not-http\r\n\r\n'));
  });
  const sockets = track(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: closer(server, sockets) };
}

/** A port that nothing listens on: bind one, then close it. */
export async function refusedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Seeded randomness for the chaos server (the same seed gives the same faults on every run). */
export { seededRandom };

/** What the chaos server does with request N (the same for every run with the same seed). */
export type ChaosFate = 'ok' | 'slow' | 'error500' | 'reset' | 'reset-mid-body';

export function chaosFate(seed: number, n: number): ChaosFate {
  const roll = seededRandom(seed * 100_003 + n)();
  if (roll < 0.05) return 'reset';
  if (roll < 0.08) return 'reset-mid-body';
  if (roll < 0.14) return 'error500';
  if (roll < 0.22) return 'slow';
  return 'ok';
}

/**
 * `/r/N` answers as {@link chaosFate} says: 200 `{"n":N}`, the same after 1–15 ms, 500, a
 * connection destroyed before any answer, or one destroyed halfway through the body.
 * `/events` streams an event every 50 ms until the client goes away.
 */
export async function startChaosServer(seed: number): Promise<FaultServer> {
  const requests: Received[] = [];
  const server = createHttpServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
    req.resume();
    if (req.url === '/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      let id = 0;
      const timer = setInterval(() => res.write(`id: ${++id}\ndata: {"tick":${id}}\n\n`), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const n = Number(/^\/r\/(\d+)$/.exec(req.url ?? '')?.[1] ?? '0');
    const body = JSON.stringify({ n });
    switch (chaosFate(seed, n)) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'reset-mid-body':
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length + 100) });
        res.write(body.slice(0, 3));
        setImmediate(() => req.socket.destroy());
        return;
      case 'error500':
        return send(res, 500, 'application/json', '{"error":"chaos"}');
      case 'slow':
        setTimeout(() => send(res, 200, 'application/json', body), 1 + (n % 15));
        return;
      default:
        return send(res, 200, 'application/json', body);
    }
  });
  server.keepAliveTimeout = 10_000;
  const sockets = track(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, requests, close: closer(server, sockets) };
}
