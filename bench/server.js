/**
 * The bench's HTTP server, on 127.0.0.1 with a free port. Run as a child process so that its
 * work never delays the bench's own clock; it prints `{"port": N}` once listening.
 *
 *   GET  /get              small JSON
 *   POST /graphql          a GraphQL-over-HTTP answer for any query
 *   GET  /large?mib=N      an N MiB JSON document (generated once, then served from memory)
 * The same routes are served over HTTP/2 in cleartext (h2c, prior knowledge) on a second port.
 *
 *   GET  /events?count=N&interval=MS
 *                          server-sent events; each carries {"seq": i, "sentAt": ms} where
 *                          sentAt is performance.timeOrigin + performance.now() when written
 */
import { createServer } from 'node:http';
import { createServer as createH2cServer } from 'node:http2';
import { jsonDocument } from './lib/json-doc.js';

const SMALL = Buffer.from(JSON.stringify({ id: 1, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'dev'], active: true }));
const GRAPHQL = Buffer.from(JSON.stringify({ data: { user: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' } } }));
const documents = new Map();

function now() {
  return performance.timeOrigin + performance.now();
}

function sendJson(res, body) {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

function events(req, res, url) {
  const count = Math.min(Number(url.searchParams.get('count') ?? '200'), 100_000);
  const interval = Math.min(Number(url.searchParams.get('interval') ?? '5'), 10_000);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  const socket = res.socket;
  socket?.setNoDelay(true);
  let seq = 0;
  // Self-correcting schedule: event i goes out at start + i·interval, whatever timers do.
  const start = now();
  let timer;
  const tick = () => {
    seq += 1;
    res.write(`id: ${seq}\ndata: {"seq":${seq},"sentAt":${now().toFixed(3)}}\n\n`);
    if (seq >= count) {
      res.end();
      return;
    }
    timer = setTimeout(tick, Math.max(0, start + (seq + 1) * interval - now()));
  };
  timer = setTimeout(tick, interval);
  req.on('close', () => clearTimeout(timer));
}

function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname === '/get') return sendJson(res, SMALL);
  if (req.method === 'POST' && url.pathname === '/graphql') {
    req.resume();
    req.on('end', () => sendJson(res, GRAPHQL));
    return undefined;
  }
  if (req.method === 'GET' && url.pathname === '/large') {
    const mib = Math.min(Number(url.searchParams.get('mib') ?? '100'), 1024);
    if (!documents.has(mib)) documents.set(mib, jsonDocument(mib * 1024 * 1024));
    return sendJson(res, documents.get(mib));
  }
  if (req.method === 'GET' && url.pathname === '/events') return events(req, res, url);
  // A slow API (reqflow test --jobs): the answer after `ms` milliseconds.
  if (req.method === 'GET' && url.pathname === '/slow') {
    const timer = setTimeout(() => sendJson(res, SMALL), Math.min(Number(url.searchParams.get('ms') ?? '20'), 1000));
    req.on('close', () => clearTimeout(timer));
    return undefined;
  }
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end('{"error":"not found"}');
  return undefined;
}

const server = createServer(handle);
server.keepAliveTimeout = 10_000;
const h2c = createH2cServer(handle);
let listening = 0;
const ready = () => {
  if (++listening === 2) process.stdout.write(`${JSON.stringify({ port: server.address().port, h2cPort: h2c.address().port })}\n`);
};
server.listen(0, '127.0.0.1', ready);
h2c.listen(0, '127.0.0.1', ready);
// The bench ends this process by closing its stdin (or by a signal): never left behind.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
