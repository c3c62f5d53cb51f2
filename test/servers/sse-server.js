// Server-sent-event endpoints for the streaming tests: plain Node `http` on 127.0.0.1, port 0.
// Each route exercises one behaviour of the client (arrival one by one, limits, drops, parsing).
import { createServer } from 'node:http';
import { listenOnLoopback, readBody } from './http-utils.js';

const SSE_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' };

/**
 * Starts the server.
 * @returns {Promise<import('./sse-server.js').SseServer>}
 */
export async function startSseServer() {
  const state = { lastSent: false, releaseGate: () => undefined, requests: [], openStreams: 0 };
  const timers = new Set();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    state.requests.push({ method: req.method, path: url.pathname, headers: req.headers, body });
    switch (url.pathname) {
      case '/gated': {
        // Two events, then nothing until the test calls release(): proves the client prints
        // events as they arrive rather than at the end of the body.
        state.lastSent = false;
        res.writeHead(200, SSE_HEADERS);
        res.write(': a comment the client ignores\n\n');
        res.write('event: greeting\nid: 1\ndata: {"hello":"world","n":1}\n\n');
        res.write('event: poem\r\nid: 2\r\ndata: roses are red\r\ndata: violets are blue\r\n\r\n');
        state.releaseGate = () => {
          state.lastSent = true;
          res.end('event: done\nid: 3\ndata: {"last":true}\n\n');
        };
        return;
      }
      case '/ticks': {
        const interval = Math.min(Number(url.searchParams.get('interval') ?? '40'), 2000);
        res.writeHead(200, SSE_HEADERS);
        res.flushHeaders(); // headers now, the first event only after `interval`
        state.openStreams += 1;
        let n = 0;
        const timer = setInterval(() => res.write(`id: ${++n}\ndata: {"n":${n}}\n\n`), interval);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
          state.openStreams -= 1;
        });
        return;
      }
      case '/drop': {
        res.writeHead(200, SSE_HEADERS);
        res.write('data: {"n":1}\n\ndata: {"n":2}\n\n');
        // Cut the connection mid-stream (no final chunk): a dropped connection.
        const timer = setTimeout(() => res.socket?.destroy(), 150);
        timers.add(timer);
        return;
      }
      case '/split': {
        // Line ends split across writes (CR | LF), a multi-byte character split in two, a BOM.
        res.writeHead(200, SSE_HEADERS);
        const bytes = Buffer.from('\uFEFFdata: {"word":"caf\u00e9"}\r\n\r\ndata: second\rdata: line\r\rdata:plain\n\n', 'utf8');
        const accent = bytes.indexOf(Buffer.from('\u00e9', 'utf8'));
        const afterCr = [...bytes.keys()].filter((i) => bytes[i] === 0x0d).map((i) => i + 1);
        const cuts = [...new Set([2, accent + 1, ...afterCr, bytes.length])].sort((a, b) => a - b);
        let from = 0;
        for (const cut of cuts) {
          res.write(bytes.subarray(from, cut));
          from = cut;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        res.end();
        return;
      }
      case '/chat': {
        // Streaming answers to a POST, like LLM APIs do.
        const words = String(JSON.parse(body || '{}').prompt ?? '').split(/\s+/).filter(Boolean);
        res.writeHead(200, SSE_HEADERS);
        for (const word of words) res.write(`event: token\ndata: ${JSON.stringify({ token: word })}\n\n`);
        res.end('event: end\ndata: [DONE]\n\n');
        return;
      }
      case '/not-sse':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end('{"message":"not a stream"}');
      default:
        res.writeHead(404, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ error: `no route ${url.pathname}` }));
    }
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests: state.requests,
    lastSent: () => state.lastSent,
    release: () => state.releaseGate(),
    openStreams: () => state.openStreams,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
