/**
 * A small API for the TUI's per-request tests: fixed answers, a failing status, and a gate —
 * `/gate` answers at once the first time, then holds every later request until the test
 * releases it (or the client goes away), so a send can be caught while it runs.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GateServer {
  url: string;
  /** Requests received so far, by path. */
  hits: Map<string, number>;
  /** Answers every held `/gate` request. */
  release(): void;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, value: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

export async function startGateServer(): Promise<GateServer> {
  const hits = new Map<string, number>();
  let held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    if (path === '/alpha') return json(res, 200, { who: 'alpha-body' });
    if (path === '/beta') return json(res, 500, { error: 'beta-broke' });
    if (path === '/emoji') return json(res, 200, { mood: '😀🚀✅ wide 中文 ❤️ 👍🏽 done', list: ['🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉'] });
    if (path === '/echo') return json(res, 200, { query: new URL(req.url ?? '/', 'http://x').search, env: req.headers['x-env'] ?? null });
    if (path === '/long') return json(res, 200, { lines: Array.from({ length: 60 }, (_v, i) => `line ${i + 1}`) });
    if (path === '/gate') {
      if (count === 1) return json(res, 200, { gate: 'first-answer' });
      held.push(res);
      return undefined;
    }
    return json(res, 404, { path });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    release() {
      for (const res of held.splice(0)) if (!res.destroyed) json(res, 200, { gate: 'released' });
    },
    async close() {
      held = [];
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
