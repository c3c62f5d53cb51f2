/**
 * A server that sets new cookies on every response must not grow the profile's jar (its session
 * file) and the `Cookie` header of every later request without end: the jar keeps what browsers
 * keep (180 a domain, 3,000 in all, the least recently used evicted first) and ignores a cookie
 * whose name and value pass 4,096 bytes. Against a real server on 127.0.0.1 that accepts large
 * request headers, so the growth would show.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { COOKIE_LIMITS, SessionCookieJar } from '../../src/core/http/cookie-jar.js';
import type { Session } from '../../src/core/model.js';
import { runCli, tempDir } from '../helpers/cli.js';

const tmp = tempDir('reqflow-cookie-flood-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: Server;
let base = '';
/** The names in each request's Cookie header, in order of arrival. */
const received: string[][] = [];

beforeAll(async () => {
  let next = 0;
  server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, (req, res) => {
    received.push((req.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((pair) => pair.slice(0, pair.indexOf('='))));
    const fresh = Array.from({ length: 100 }, () => `c${next++}=${'v'.repeat(40)}; Path=/`);
    fresh.push(`huge${next}=${'h'.repeat(5000)}; Path=/`); // over 4,096 bytes: ignored
    res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': fresh });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

test('a server setting 100 new cookies per response: the jar keeps the newest 180, the Cookie header stops growing, a 5,000-byte cookie is never kept', async () => {
  tmp.write('flood/.profiles.json', '[{"name": "default"}]');
  tmp.write('flood/api.http', Array.from({ length: 5 }, (_, i) => `### r${i}\nGET ${base}/r${i}\n`).join('\n'));
  const result = await runCli(['run', 'api.http', '-o', 'raw'], { cwd: join(tmp.dir, 'flood'), env });
  expect(result.code).toBe(0);
  // Each request carries what the jar kept so far: 0, 100, then never more than the limit.
  expect(received.map((names) => names.length)).toEqual([0, 100, COOKIE_LIMITS.perDomain, COOKIE_LIMITS.perDomain, COOKIE_LIMITS.perDomain]);
  // The newest are the ones kept: the last response's 100 are all in the jar after the run.
  const listed = await runCli(['cookies', 'list', '--json'], { cwd: join(tmp.dir, 'flood'), env });
  const names = (JSON.parse(listed.stdout) as { cookies: Array<{ name: string }> }).cookies.map((cookie) => cookie.name);
  expect(names).toHaveLength(COOKIE_LIMITS.perDomain);
  for (let i = 400; i < 500; i++) expect(names).toContain(`c${i}`);
  expect(names).not.toContain('c0');
  expect(received.flat().some((name) => name.startsWith('huge'))).toBe(false);
  expect(names.some((name) => name.startsWith('huge'))).toBe(false);
});

test('across many sites the jar keeps at most 3,000 cookies, the least recently used going first', async () => {
  const data = new Map<string, unknown>();
  const session: Session = { profile: 'p', get: () => undefined, set: () => undefined, delete: () => undefined, getData: <T>(key: string) => data.get(key) as T, setData: (key, value) => void data.set(key, value), names: () => [], save: async () => undefined };
  const jar = new SessionCookieJar(session);
  for (let site = 0; site < 20; site++) {
    await jar.store(`http://site${site}.example.test/`, Array.from({ length: 170 }, (_, i) => `s${site}c${i}=1; Path=/`));
  }
  const kept = await jar.list();
  expect(kept).toHaveLength(COOKIE_LIMITS.total);
  const sites = new Set(kept.map((cookie) => cookie.domain));
  expect(sites.has('site19.example.test')).toBe(true); // the newest site is kept whole
  expect(kept.filter((cookie) => cookie.domain === 'site19.example.test')).toHaveLength(170);
  expect(sites.has('site0.example.test')).toBe(false); // the oldest went first
});
