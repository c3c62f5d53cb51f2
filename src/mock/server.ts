/**
 * The mock's HTTP server: each request is matched (match.ts), waits its route's delay, and gets
 * the route's response — templated (template.ts), from a file, or an event stream (sse.ts) —
 * or a 404 listing the routes. The routes can be swapped while it runs (a reload).
 */
import { STATUS_CODES, validateHeaderValue, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BoundedRunner } from '../core/bounded-run.js';
import { createGuardedServer } from '../core/guarded-server.js';
import { httpAddress, listenOn } from '../core/listen.js';
import { answerAndLinger } from '../core/lingering-close.js';
import { stringifyJsonValue } from '../core/json-exact.js';
import { sendBodyFile } from './body-file.js';
import type { MockConfig, MockRoute } from './config.js';
import { matchRoute } from './match.js';
import { sendEvents } from './sse.js';
import { isTemplate, renderText, renderValue, type MockRequest } from './template.js';

export interface MockServer {
  /** The port listened on (the real one when 0 was asked). */
  port: number;
  url: string;
  /** Serves these routes from the next request on. */
  setConfig(config: MockConfig): void;
  /** Stops listening and closes every connection, streams included. */
  close(): Promise<void>;
}

/** A request body larger than this is refused (413): the mock keeps bodies in memory to template them. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** All the bodies held at once, every connection together: past it a request is refused (503), so 40 clients sending 15 MiB each do not take gigabytes. */
const MAX_HELD_BYTES = 32 * 1024 * 1024;
const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json';

/** A request the mock will not hold: its status and one-line reason. */
class BodyRefused extends Error {
  constructor(
    readonly status: 413 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** The body bytes the server holds (`held`), and this request's share of them (given back when its answer is done). */
interface BodyBudget {
  held: { bytes: number };
  mine: { bytes: number };
}

function readRequestBody(req: IncomingMessage, budget: BodyBudget): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      budget.mine.bytes += chunk.length;
      budget.held.bytes += chunk.length;
      if (budget.mine.bytes > MAX_BODY_BYTES || budget.held.bytes > MAX_HELD_BYTES) {
        refused = true;
        chunks.length = 0;
        const tooLarge = budget.mine.bytes > MAX_BODY_BYTES;
        // Dropped now, so given back now: the refused client may take a while to stop sending.
        budget.held.bytes -= budget.mine.bytes;
        budget.mine.bytes = 0;
        reject(tooLarge ? new BodyRefused(413, `request body over ${MAX_BODY_BYTES} bytes`) : new BodyRefused(503, `the mock holds ${MAX_HELD_BYTES} bytes of request bodies at most, all clients together: try again`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      chunks.length = 0; // this listener lives as long as the request: it must not keep the bytes too
      resolve(text);
    });
    req.on('error', reject);
  });
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** A route's body that does not depend on the request, serialised once. */
const staticBodies = new WeakMap<MockRoute, { bytes: string; type: string } | null>();
function staticBody(route: MockRoute): { bytes: string; type: string } | null {
  let cached = staticBodies.get(route);
  if (cached === undefined) {
    const { body } = route;
    const text = typeof body === 'string' ? body : (stringifyJsonValue(body) ?? '');
    cached = body === undefined ? { bytes: '', type: TEXT } : isTemplate(text) ? null : { bytes: text, type: typeof body === 'string' ? TEXT : JSON_TYPE };
    staticBodies.set(route, cached);
  }
  return cached;
}

/** The bytes and default Content-Type of a route's body (not a stream, not a file). */
async function responseBody(route: MockRoute, request: MockRequest): Promise<{ bytes: string; type: string }> {
  const fixed = staticBody(route);
  if (fixed) return fixed;
  if (typeof route.body === 'string') return { bytes: await renderText(route.body, request), type: TEXT };
  return { bytes: stringifyJsonValue(await renderValue(route.body, request)) ?? 'null', type: JSON_TYPE };
}

async function renderHeaders(route: MockRoute, request: MockRequest): Promise<Record<string, string>> {
  if (!Object.values(route.headers).some(isTemplate)) return route.headers;
  const entries = await Promise.all(Object.entries(route.headers).map(async ([name, value]) => [name, await renderText(value, request)] as const));
  // Checked before writeHead: one it refuses half-way leaves the response's state (its Content-Length) behind for the 500.
  for (const [name, value] of entries) validateHeaderValue(name, value);
  return Object.fromEntries(entries);
}

function sendJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  // Its own reason phrase: a route that failed after choosing its status (a templated header with a line break) set "OK".
  res.writeHead(status, STATUS_CODES[status], { 'Content-Type': JSON_TYPE, ...extra });
  res.end(JSON.stringify(value));
}

/** What the 404 lists: enough to see why nothing matched. */
function routeList(config: MockConfig): Array<Record<string, string>> {
  return config.routes.map((r) => ({ method: r.method, path: r.path, pathType: r.pathType, ...(r.name !== undefined ? { name: r.name } : {}) }));
}

async function answer(config: MockConfig, req: IncomingMessage, res: ServerResponse, closed: AbortSignal, budget: BodyBudget, bounded: BoundedRunner): Promise<void> {
  // The absolute form (`GET http://host/path`) names the same resource as its path (RFC 9112 §3.2.2).
  const sent = req.url ?? '/';
  const authority = /^https?:\/\/[^/?#]*/i.exec(sent)?.[0];
  const target = authority === undefined ? sent : `/${sent.slice(authority.length).replace(/^\//, '')}`;
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const method = (req.method ?? 'GET').toUpperCase();
  const body = await readRequestBody(req, budget);
  const found = matchRoute(config.routes, method, path);
  if (!found) {
    sendJson(res, 404, { error: `no route matches ${method} ${path}`, routes: routeList(config) });
    return;
  }
  const { route, params } = found;
  const request: MockRequest = { method, path, query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)), headers: req.headers, body, params, bounded };
  if (route.delayMs > 0) await sleep(route.delayMs, undefined, { signal: closed });
  const headers = await renderHeaders(route, request);
  if (route.sse) {
    res.writeHead(route.status, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', ...headers });
    res.flushHeaders();
    await sendEvents(res, route.sse, (data) => (typeof data === 'string' ? renderText(data, request) : renderValue(data, request)), closed);
    return;
  }
  // Content-Length, not chunked: what a plain server sends, and what a client reads fastest. None
  // on a 204 or 304, which have no body (RFC 9110 §8.6): a client could wait for one.
  const bodiless = route.status === 204 || route.status === 304;
  const writeHead = (type: string, length: number): void =>
    void res.writeHead(route.status, { ...(hasHeader(headers, 'content-type') || bodiless ? {} : { 'Content-Type': type }), ...(hasHeader(headers, 'content-length') || bodiless ? {} : { 'Content-Length': length }), ...headers });
  if (route.bodyFile !== undefined) return sendBodyFile(res, route.bodyFile, config.folder, method === 'HEAD', ({ type, length }) => writeHead(type, length));
  const { bytes, type } = await responseBody(route, request);
  writeHead(type, Buffer.byteLength(bytes));
  res.end(bytes);
}

/** Listens on `host:port` (loopback unless asked otherwise); a taken port is exit 2 naming it. */
export async function startMockServer(initial: MockConfig, options: { port: number; host: string; log: (line: string) => void }): Promise<MockServer> {
  let config = initial;
  const held = { bytes: 0 };
  const bounded = new BoundedRunner();
  const server = createGuardedServer((line) => void (config.logging && options.log(`mock: refused ${line}`)));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A request pipelined behind a refused one is not answered: that connection is ending.
    if (!req.socket.writable) return;
    const started = performance.now();
    const closed = new AbortController();
    const budget = { held, mine: { bytes: 0 } };
    res.on('close', () => {
      held.bytes -= budget.mine.bytes;
      // Only a client that left stops a delay or a stream (aborting builds an error: not per answer).
      if (!res.writableFinished) closed.abort();
      if (config.logging) options.log(`${req.method ?? '?'} ${req.url ?? '/'} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
    });
    answer(config, req, res, closed.signal, budget, bounded).catch((error: unknown) => {
      if (closed.signal.aborted) return; // the client left during a delay or a stream
      // Closed after the answer: the rest of an endless body is not read for ever.
      if (error instanceof BodyRefused) return answerAndLinger(req, res, error.status, { error: error.message });
      const message = error instanceof Error ? error.message : String(error);
      options.log(`mock: ${req.method ?? '?'} ${req.url ?? '/'}: ${message}`);
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: message });
    });
  });
  const port = await listenOn(server, options.port, options.host);
  return {
    port,
    url: httpAddress(options.host, port),
    setConfig: (next) => void (config = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets and open streams would hold close() open
      }),
  };
}
