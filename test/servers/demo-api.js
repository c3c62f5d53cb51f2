// The bundled demo API: `npm run demo` and the end-to-end tests send requests to it.
// Plain Node `http` on 127.0.0.1 with port 0; no framework, so it starts in milliseconds.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readBody, listenOnLoopback } from './http-utils.js';

const USERS = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin'] },
  { id: 2, name: 'Alan Turing', email: 'alan@example.com', roles: ['user'] },
  { id: 3, name: 'Grace Hopper', email: 'grace@example.com', roles: ['user', 'ops'] },
];


function json(res, status, value, headers = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * Starts the demo API on 127.0.0.1, on `port` (0: any free port).
 * @param {number} [port]
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void>, tokens: Set<string> }>}
 */
export async function startDemoApi(port = 0) {
  const tokens = new Set();
  // Notes: a small create → fetch → delete resource behind the login token (the chaining examples).
  const notes = new Map();
  let nextNote = 1;
  const bearer = (req) => {
    const auth = req.headers.authorization ?? '';
    return tokens.has(auth.startsWith('Bearer ') ? auth.slice(7) : '');
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    try {
      if (path === '/health') return json(res, 200, { status: 'ok' });
      if (path === '/login' && req.method === 'POST') {
        const body = JSON.parse((await readBody(req)) || '{}');
        if (body.username && body.password === 'secret') {
          const token = `tok_${randomBytes(12).toString('hex')}`;
          tokens.add(token);
          return json(res, 200, { token, user: body.username });
        }
        return json(res, 401, { error: 'invalid credentials' });
      }
      if (path === '/me') {
        const auth = req.headers.authorization ?? '';
        const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
        if (!tokens.has(token)) return json(res, 401, { error: 'missing or invalid token' }, { 'WWW-Authenticate': 'Bearer' });
        return json(res, 200, { user: 'alice', scopes: ['read', 'write'] });
      }
      if (path === '/notes' || path.startsWith('/notes/')) {
        if (!bearer(req)) return json(res, 401, { error: 'missing or invalid token' }, { 'WWW-Authenticate': 'Bearer' });
        if (path === '/notes' && req.method === 'POST') {
          const body = JSON.parse((await readBody(req)) || '{}');
          if (typeof body.text !== 'string') return json(res, 400, { error: 'text is required' });
          const note = { id: nextNote++, text: body.text };
          notes.set(note.id, note);
          return json(res, 201, note, { Location: `/notes/${note.id}` });
        }
        if (path === '/notes' && req.method === 'GET') return json(res, 200, { notes: [...notes.values()] });
        const id = Number(path.slice('/notes/'.length));
        if (!notes.has(id)) return json(res, 404, { error: `no note ${id}` });
        if (req.method === 'DELETE') {
          notes.delete(id);
          res.writeHead(204);
          return res.end();
        }
        return json(res, 200, notes.get(id));
      }
      if (path === '/users.xml') {
        const xml = `<?xml version="1.0"?><users>${USERS.map((u) => `<user id="${u.id}"><name>${u.name}</name></user>`).join('')}</users>`;
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        return res.end(xml);
      }
      if (path === '/users' && req.method === 'GET') return json(res, 200, { users: USERS, total: USERS.length });
      const user = /^\/users\/(\d+)$/.exec(path);
      if (user) {
        const found = USERS.find((u) => u.id === Number(user[1]));
        return found ? json(res, 200, found) : json(res, 404, { error: `no user ${user[1]}` });
      }
      if (path === '/echo') {
        const body = await readBody(req);
        return json(res, 200, { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
      }
      if (path === '/text') {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        return res.end('hello from the demo API\n');
      }
      const status = /^\/status\/(\d{3})$/.exec(path);
      if (status) return json(res, Number(status[1]), { status: Number(status[1]) });
      if (path === '/slow') {
        const ms = Math.min(Number(url.searchParams.get('ms') ?? '1000'), 60_000);
        // A client that gives up (a time-out, a cancel) ends the wait: no timer outlives it.
        const answered = await new Promise((resolve) => {
          const timer = setTimeout(() => resolve(true), ms);
          res.on('close', () => {
            clearTimeout(timer);
            resolve(false);
          });
        });
        return answered ? json(res, 200, { waited: ms }) : undefined;
      }
      if (path === '/large') {
        // A large JSON array, written in chunks with back-pressure: {"items":[{...},...]}
        const bytes = Math.min(Number(url.searchParams.get('bytes') ?? 1_048_576), 1024 * 1024 * 1024);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const item = (i) => JSON.stringify({ id: i, name: `item ${i}`, tags: ['a', 'b'], ok: i % 2 === 0, score: i / 7 });
        let written = 0;
        let i = 0;
        res.write('{"items":[');
        const pump = () => {
          while (written < bytes) {
            const piece = (i === 0 ? '' : ',') + item(i++);
            written += piece.length;
            if (!res.write(piece)) return res.once('drain', pump);
          }
          res.end(']}');
        };
        return pump();
      }
      if (path === '/events') {
        const count = Math.min(Number(url.searchParams.get('count') ?? '5'), 10_000);
        const interval = Math.min(Number(url.searchParams.get('interval') ?? '100'), 10_000);
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
        res.write(': demo stream\n\n');
        let n = 0;
        const timer = setInterval(() => {
          n += 1;
          res.write(`event: tick\nid: ${n}\ndata: ${JSON.stringify({ n, at: Date.now() })}\n\n`);
          if (n >= count) {
            clearInterval(timer);
            res.end();
          }
        }, interval);
        req.on('close', () => clearInterval(timer));
        return;
      }
      return json(res, 404, { error: `no route ${req.method} ${path}` });
    } catch (error) {
      return json(res, 400, { error: String(error.message ?? error) });
    }
  });
  const listening = await listenOnLoopback(server, port);
  return {
    url: `http://127.0.0.1:${listening}`,
    port: listening,
    tokens,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
