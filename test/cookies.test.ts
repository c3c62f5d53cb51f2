/**
 * The cookie jar end to end with the built CLI against a server that sets and checks cookies:
 * a login's Set-Cookie sent back later in the run and in later runs (session file, 0600), on a
 * redirect hop too; `# @no-cookie-jar`, `--no-cookies`, a Cookie header written in the file;
 * `reqflow cookies list|clear`; cookie values never printed.
 */
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { MAX_COOKIE_AGE_MS, mayApply, SessionCookieJar } from '../src/core/http/cookie-jar.js';
import type { Session } from '../src/core/model.js';

const tmp = tempDir('reqflow-cookies-');
const DAY_MS = 24 * 60 * 60 * 1000;
let server: Server;
let base = '';
const sessions = new Set<string>();
const seen: Array<{ url: string; cookie?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}) });
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const json = (status: number, body: unknown, headers: IncomingHttpHeaders = {}): void => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/login') {
      const id = `sid-${randomBytes(8).toString('hex')}`;
      sessions.add(id);
      return json(200, { ok: true }, { 'Set-Cookie': [`sid=${id}; Path=/; HttpOnly`, 'theme=dark; Path=/; Max-Age=3600', 'stray=1; Domain=other.example; Path=/'] } as never);
    }
    if (req.url === '/login-redirect') {
      const id = `sid-${randomBytes(8).toString('hex')}`;
      sessions.add(id);
      res.writeHead(302, { Location: '/private', 'Set-Cookie': `sid=${id}; Path=/` });
      return res.end();
    }
    if (req.url === '/private') return sid && sessions.has(sid) ? json(200, { user: 'alice' }) : json(401, { error: 'no session' });
    // Prefixed names in other cases, without the attributes their prefix demands (RFC 6265bis: matched case-insensitively).
    if (req.url === '/prefixes') return json(200, { ok: true }, { 'Set-Cookie': ['__host-lower=1; Path=/', '__SECURE-upper=1; Path=/', '__HOST-dom=1; Secure; Path=/; Domain=127.0.0.1', 'plain=1; Path=/'] } as never);
    // RFC 6265's way to delete cookies: Max-Age=0, or an Expires in the past.
    if (req.url === '/logout') return json(200, { ok: true }, { 'Set-Cookie': ['sid=; Path=/; Max-Age=0', 'theme=x; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'] } as never);
    // Expiries past any date a program can hold, or years ahead: kept 400 days at most (RFC 6265bis).
    if (req.url === '/forever') return json(200, { ok: true }, { 'Set-Cookie': ['huge=1; Path=/; Max-Age=999999999999999999999', `far=1; Path=/; Expires=${new Date(Date.now() + 10 * 365 * DAY_MS).toUTCString()}`, 'hour=1; Path=/; Max-Age=3600'] } as never);
    return json(200, { cookie: req.headers.cookie ?? null });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

/** Each test its own state folder (sessions, so cookies), unless it says otherwise. */
function cli(state: string) {
  const env = { REQFLOW_STATE_DIR: join(tmp.dir, state) };
  return {
    run: (text: string, ...args: string[]) => runCli(['run', tmp.write(`${state}-${seen.length}.http`, text.replaceAll('BASE', base)), ...args], { cwd: tmp.dir, env }),
    cookies: (...args: string[]) => runCli(['cookies', ...args], { cwd: tmp.dir, env }),
    env,
  };
}

describe('the cookie jar', () => {
  test('a login\'s cookies go back on the next request; a cookie for another domain is not kept', async () => {
    const { run } = cli('one-run');
    const before = seen.length;
    const result = await run('POST BASE/login\n\n###\nGET BASE/private\n', '-v');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"user": "alice"');
    const sent = seen.slice(before).find((r) => r.url === '/private')?.cookie ?? '';
    expect(sent).toMatch(/^sid=sid-[0-9a-f]{16}; theme=dark$/);
    // Values are credentials: never printed (-v shows the Set-Cookie header masked).
    const sid = /sid=(sid-[0-9a-f]+)/.exec(sent)?.[1] as string;
    expect(result.stdout + result.stderr).not.toContain(sid);
    // What was sent includes the jar's Cookie: -v and -o json show it, masked.
    expect(result.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/private\nCookie: •••$/m);
    const json = await run('POST BASE/login\n\n###\nGET BASE/private\n', '-o', 'json');
    const records = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { url: string; request: { headers: Record<string, string> } });
    // The jar kept the first run's cookies: both requests sent them this time.
    expect(records.map((record) => record.request.headers.Cookie)).toEqual(['•••', '•••']);
  });

  test('kept across runs in the session file (0600); reqflow cookies list shows names, never values; clear forgets them', async () => {
    const { run, cookies, env } = cli('across');
    expect((await run('POST BASE/login\n')).code).toBe(0);
    const second = await run('GET BASE/private\n');
    expect(second.code).toBe(0);
    const file = sessionFileFor(env.REQFLOW_STATE_DIR, tmp.dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const sid = /"(sid-[0-9a-f]{16})"/.exec(readFileSync(file, 'utf8'))?.[1] as string;
    expect(sid).toBeDefined();
    const listed = await cookies('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^domain\tpath\tname\texpires\tflags$/m);
    expect(listed.stdout).toMatch(/^127\.0\.0\.1\t\/\tsid\tsession\tHttpOnly$/m);
    expect(listed.stdout).toMatch(/^127\.0\.0\.1\t\/\ttheme\t\d{4}-\d\d-\d\dT/m);
    expect(listed.stdout).not.toContain(sid);
    expect(listed.stdout).not.toContain('dark');
    const json = JSON.parse((await cookies('list', '--json')).stdout) as { cookies: Array<{ name: string }> };
    expect(json.cookies.map((c) => c.name).sort()).toEqual(['sid', 'theme']);
    const cleared = await cookies('clear');
    expect(cleared.stdout).toBe('removed 2 cookies of profile "default"\n');
    expect((await run('GET BASE/private\n')).code).toBe(1); // 401: the session cookie is gone
    expect((await cookies('list')).stdout).toBe('no cookies kept for profile "default"\n');
  });

  test('cookies a server deletes (Max-Age=0, an Expires in the past) are gone: not listed, not kept in the session file, not sent', async () => {
    const { run, cookies, env } = cli('deleted');
    expect((await run('POST BASE/login\n')).code).toBe(0);
    expect((await run('POST BASE/logout\n')).code).toBe(0);
    expect((await cookies('list')).stdout).toBe('no cookies kept for profile "default"\n');
    expect(readFileSync(sessionFileFor(env.REQFLOW_STATE_DIR, tmp.dir), 'utf8')).not.toMatch(/"key": "(sid|theme)"/);
    expect((await run('GET BASE/private\n')).code).toBe(1);
  });

  test('an expiry past the latest date (Max-Age=999999999999999999999) or years ahead is kept 400 days; the jar lists and sends it', async () => {
    const { run, cookies, env } = cli('forever');
    const before = Date.now();
    expect((await run('GET BASE/forever\n\n###\nGET BASE/echo\n')).code).toBe(0);
    expect(seen.at(-1)?.cookie).toBe('huge=1; far=1; hour=1');
    const listed = await cookies('list');
    expect(listed).toMatchObject({ code: 0, stderr: '' }); // was exit 70: "Invalid time value"
    const json = await cookies('list', '--json');
    expect(json.code).toBe(0);
    const expires = Object.fromEntries((JSON.parse(json.stdout) as { cookies: Array<{ name: string; expires: string }> }).cookies.map((c) => [c.name, Date.parse(c.expires)]));
    for (const name of ['huge', 'far']) {
      expect(expires[name]).toBeGreaterThanOrEqual(before + MAX_COOKIE_AGE_MS - 1000);
      expect(expires[name]).toBeLessThanOrEqual(Date.now() + MAX_COOKIE_AGE_MS);
      expect(listed.stdout).toContain(`\t${name}\t${new Date(expires[name] as number).toISOString()}\t`);
    }
    expect(expires.hour).toBeLessThanOrEqual(Date.now() + 3600_000);
    // The session file keeps a date, not the Max-Age as it came.
    expect(readFileSync(sessionFileFor(env.REQFLOW_STATE_DIR, tmp.dir), 'utf8')).not.toMatch(/maxAge/);
  });

  test('a jar an older version saved with Max-Age=1e21 is read: listed (400 days from its last use), sent, cleared', async () => {
    const { run, cookies, env } = cli('old-jar');
    const lastUsed = new Date(Date.now() - DAY_MS);
    const file = sessionFileFor(env.REQFLOW_STATE_DIR, tmp.dir);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const saved = { key: 'old', value: 'v', maxAge: 1e21, domain: '127.0.0.1', path: '/', hostOnly: true, creation: lastUsed.toISOString(), lastAccessed: lastUsed.toISOString() };
    writeFileSync(file, JSON.stringify({ version: 1, variables: {}, data: { cookies: { version: 'tough-cookie@6.1.0', storeType: 'MemoryCookieStore', rejectPublicSuffixes: true, cookies: [saved] } } }), { mode: 0o600 });
    const listed = await cookies('list', '--json');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toMatchObject({ cookies: [{ name: 'old', expires: new Date(lastUsed.getTime() + MAX_COOKIE_AGE_MS).toISOString() }] });
    expect((await cookies('list')).code).toBe(0);
    expect((await run('GET BASE/echo\n')).code).toBe(0);
    expect(seen.at(-1)?.cookie).toBe('old=v');
    expect((await cookies('clear')).stdout).toBe('removed 1 cookie of profile "default"\n');
  });

  test('a cookie set on a redirect hop is sent on the next hop', async () => {
    const { run } = cli('redirect');
    const result = await run('GET BASE/login-redirect\n', '-L');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"user": "alice"');
  });

  test('# @no-cookie-jar: that request neither sends nor keeps cookies; --no-cookies: no jar at all', async () => {
    const { run } = cli('opt-out');
    await run('POST BASE/login\n');
    const before = seen.length;
    const optedOut = await run('# @no-cookie-jar\nGET BASE/echo\n\n###\nGET BASE/echo\n', '-o', 'json');
    const sent = seen.slice(before).map((r) => r.cookie ?? null);
    expect(sent[0]).toBeNull();
    expect(sent[1]).toMatch(/^sid=/);
    expect(optedOut.code).toBe(0);
    const none = await run('GET BASE/private\n', '--no-cookies');
    expect(none.code).toBe(1);
    const { run: fresh, cookies } = cli('no-cookies');
    await fresh('POST BASE/login\n', '--no-cookies');
    expect((await cookies('list')).stdout).toBe('no cookies kept for profile "default"\n');
  });

  test('a __Secure- or __Host- name in any case, without what its prefix demands, is ignored as browsers and curl do', async () => {
    const { run, cookies } = cli('prefixes');
    expect((await run('GET BASE/prefixes\n\n###\nGET BASE/echo\n')).code).toBe(0);
    expect(seen.at(-1)?.cookie).toBe('plain=1');
    const listed = await cookies('list', '--json');
    expect(listed.stdout).not.toMatch(/__host-lower|__SECURE-upper|__HOST-dom/);
    expect(listed.stdout).toContain('plain');
  });

  test('a Cookie header written in the file is sent as written, without the jar\'s', async () => {
    const { run } = cli('written');
    await run('POST BASE/login\n');
    const before = seen.length;
    await run('GET BASE/echo\nCookie: mine=1\n');
    expect(seen.slice(before).map((r) => r.cookie)).toEqual(['mine=1']);
  });
});

describe('the saved jar is read only for a request a saved cookie may apply to', () => {
  /** A session holding what a jar saved after `Set-Cookie` headers from `origin`. */
  async function sessionWith(origin: string, setCookies: string[]): Promise<Session> {
    const { CookieJar } = await import('tough-cookie');
    const jar = new CookieJar();
    for (const header of setCookies) await jar.setCookie(header, origin);
    const data = new Map<string, unknown>([['cookies', jar.serializeSync()]]);
    return { profile: 'p', get: () => undefined, set: () => undefined, delete: () => undefined, getData: <T>(key: string) => data.get(key) as T, setData: (key, value) => void data.set(key, value), names: () => [], save: async () => undefined };
  }

  test('another host: no Cookie, yet every saved value is a secret; the cookie\'s host and, for a Domain cookie, its subdomains: sent', async () => {
    const session = await sessionWith('http://api.example.test/', ['sid=s3cret; Path=/', 'wide=w1; Domain=example.test; Path=/']);
    const seen: string[] = [];
    const jar = new SessionCookieJar(session, (value) => seen.push(value));
    expect(await jar.header('http://127.0.0.1:8080/x')).toBeUndefined();
    expect(await jar.header('http://other.test/x')).toBeUndefined();
    expect(seen.sort()).toEqual(['s3cret', 'w1']); // masked in all output, though never sent
    expect(await jar.header('http://api.example.test/x')).toBe('sid=s3cret; wide=w1');
    expect(await jar.header('http://www.example.test/x')).toBe('wide=w1');
  });

  test('the pre-check errs only on the side of loading: host-only, IP and upper-case hosts', () => {
    const saved = { cookies: [{ domain: 'example.test', hostOnly: true }, { domain: '127.0.0.1' }] };
    expect(mayApply(saved, 'http://sub.example.test/')).toBe(true); // the jar itself refuses a host-only cookie here
    expect(mayApply(saved, 'http://EXAMPLE.test/')).toBe(true);
    expect(mayApply(saved, 'http://127.0.0.1:9/')).toBe(true);
    expect(mayApply(saved, 'http://[::1]:9/')).toBe(false);
    expect(mayApply(undefined, 'http://example.test/')).toBe(false);
    expect(mayApply({ cookies: 'unexpected' }, 'http://example.test/')).toBe(true);
  });
});
