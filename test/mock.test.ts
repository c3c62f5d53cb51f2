/**
 * `reqflow mock`: the built CLI serves a mock file on 127.0.0.1, and reqflow itself, curl and
 * Node's fetch talk to it. Every server is a child process, stopped at the end of its test.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect, createServer, type Server } from 'node:net';
import { runCli, tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { needs } from './helpers/system-programs.js';

const MOCK = `
port: 8080
logging: true
routes:
  - name: users
    method: GET
    path: /users
    body: [{id: 1, name: Ada}]
  - method: GET
    path: /users/(?<id>[0-9]+)/posts/([a-z]+)
    pathType: regex
    headers: {X-User: "{{params.id}}"}
    body: {user: "{{params.id}}", slug: "{{params.2}}", page: "{{request.query.page}}"}
  - method: POST
    path: /greet
    status: 201
    headers: {Content-Type: text/plain}
    body: 'hello {{request.body.$.name}} ({{request.headers.x-id}}) at {{request.path}}'
  - method: POST
    path: /copy
    body: {id: "{{request.body.$.id}}", tags: "{{request.body.$.tags}}"}
  - method: "*"
    path: /files/
    pathType: prefix
    bodyFile: data/answer.json
  - method: GET
    path: /slow
    delay: 300ms
    body: late
  - method: GET
    path: /events
    sse:
      interval: 50ms
      repeat: 2
      events:
        - {event: tick, id: "1", data: {n: 1}}
        - data: "{{request.query.who}}"
  - method: GET
    path: /users
    pathType: prefix
    status: 418
    body: teapot
`;

const started: LiveCli[] = [];
let files: ReturnType<typeof tempDir>;

beforeEach(() => {
  files = tempDir('reqflow-mock-');
  files.write('data/answer.json', '{"answer":42}');
});

afterEach(async () => {
  for (const cli of started.splice(0)) {
    cli.kill('SIGKILL');
    await cli.done;
  }
  files.cleanup();
});

/** Starts `reqflow mock` on a free port; resolves once it says where it listens. */
/** The head of the answer to `GET path`, as the bytes came (node:net: a client that parses nothing away). */
function rawHead(url: string, path: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text.split('\r\n\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

async function startMock(args: string[]): Promise<{ cli: LiveCli; url: string }> {
  const cli = startCli(['mock', ...args, '--port', '0'], { cwd: files.dir, timeoutMs: 60_000 });
  started.push(cli);
  const [, url] = await cli.waitForStdout(/mock: listening on (http:\/\/127\.0\.0\.1:\d+) /);
  return { cli, url: url as string };
}

async function mockFile(text = MOCK): Promise<{ cli: LiveCli; url: string }> {
  files.write('api.mock.yaml', text);
  return startMock(['api.mock.yaml']);
}

describe('a bodyFile that is a named pipe', () => {
  test('refused at load; one put in a file\'s place is a 500 at once, and every other route still answers', async () => {
    execFileSync('mkfifo', [join(files.dir, 'pipe.txt')]);
    files.write('fifo.mock.yaml', 'routes:\n  - {method: GET, path: /p, bodyFile: pipe.txt}\n');
    const refused = await runCli(['mock', 'fifo.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('routes[0].bodyFile names a named pipe, not a file');
    files.write('swap.txt', 'plain');
    files.write('other.txt', 'other');
    files.write('swap.mock.yaml', 'routes:\n  - {method: GET, path: /s, bodyFile: swap.txt}\n  - {method: GET, path: /o, bodyFile: other.txt}\n');
    const { url } = await startMock(['swap.mock.yaml', '--no-watch']);
    rmSync(join(files.dir, 'swap.txt'));
    execFileSync('mkfifo', [join(files.dir, 'swap.txt')]);
    const swapped = await Promise.all(Array.from({ length: 6 }, () => fetch(`${url}/s`, { signal: AbortSignal.timeout(5000) })));
    expect(swapped.map((response) => response.status)).toEqual([500, 500, 500, 500, 500, 500]);
    const other = await fetch(`${url}/o`, { signal: AbortSignal.timeout(5000) });
    expect([other.status, await other.text()]).toEqual([200, 'other']);
  });
});

describe('matching and responses', () => {
  test('exact, prefix and regex routes, captures in headers and body, the first match wins', async () => {
    const { cli, url } = await mockFile();
    expect(cli.stdout()).toContain(`mock: listening on ${url} (8 routes from api.mock.yaml)`);

    const users = await fetch(`${url}/users`);
    expect(users.status).toBe(200);
    expect(users.headers.get('content-type')).toBe('application/json');
    expect(await users.json()).toEqual([{ id: 1, name: 'Ada' }]);

    const posts = await fetch(`${url}/users/42/posts/intro?page=3`);
    expect(posts.headers.get('x-user')).toBe('42');
    expect(await posts.json()).toEqual({ user: '42', slug: 'intro', page: '3' });
    // The regex is anchored: a longer path is not its match, but the prefix route's (listed after it).
    expect((await fetch(`${url}/users/42/posts/intro/more`)).status).toBe(418);
    expect(await (await fetch(`${url}/usersX`)).text()).toBe('teapot');

    const file = await fetch(`${url}/files/anything/below`, { method: 'DELETE' });
    expect(file.headers.get('content-type')).toBe('application/json');
    expect(await file.text()).toBe('{"answer":42}');
    // One log line per request on stderr: method, path, status, ms.
    await cli.waitForStderr(/DELETE \/files\/anything\/below 200 \d+ms/);
  });

  test('templated from the request: JSONPath over the body (values keep their JSON type), headers, path', async () => {
    const { url } = await mockFile();
    const greet = await fetch(`${url}/greet`, { method: 'POST', headers: { 'x-id': 'abc' }, body: JSON.stringify({ name: 'Grace' }) });
    expect(greet.status).toBe(201);
    expect(await greet.text()).toBe('hello Grace (abc) at /greet');
    const copy = await fetch(`${url}/copy`, { method: 'POST', body: '{"id": 12345678901234567890, "tags": ["a", "b"]}' });
    // A 64-bit id goes back exactly as sent.
    expect(await copy.text()).toBe('{"id":12345678901234567890,"tags":["a","b"]}');
  });

  test('reqflow run against the mock: a request file, the templated response', async () => {
    const { url } = await mockFile();
    files.write('greet.http', `POST ${url}/greet\nX-Id: from-reqflow\nContent-Type: application/json\n\n{"name": "Alan"}\n`);
    const result = await runCli(['run', 'greet.http'], { cwd: files.dir });
    expect(result.stderr).toContain('201');
    expect(result.stdout).toContain('hello Alan (from-reqflow) at /greet');
    expect(result.code).toBe(0);
  });

  needs(['curl'], 'curl against the mock').test('curl against the mock', async () => {
    const { url } = await mockFile();
    const curl = spawnSync('curl', ['-s', '-i', '-H', 'X-Id: c', '--data', '{"name":"curl"}', `${url}/greet`], { encoding: 'utf8', timeout: 10_000 });
    expect(curl.stdout).toMatch(/^HTTP\/1\.1 201 Created/);
    expect(curl.stdout).toContain('hello curl (c) at /greet');
  });

  test('a delay is waited before the answer', async () => {
    const { url } = await mockFile();
    const start = performance.now();
    const response = await fetch(`${url}/slow`);
    expect(await response.text()).toBe('late');
    expect(performance.now() - start).toBeGreaterThanOrEqual(295); // timers may fire a hair early
  });

  test('no match: a JSON 404 that lists the routes', async () => {
    const { url } = await mockFile();
    const response = await fetch(`${url}/nothing/here`, { method: 'PUT' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: string; routes: Array<{ method: string; path: string; pathType: string }> };
    expect(body.error).toBe('no route matches PUT /nothing/here');
    expect(body.routes).toHaveLength(8);
    expect(body.routes[0]).toEqual({ method: 'GET', path: '/users', pathType: 'exact', name: 'users' });
  });

  test('a template that would put a line break into a response header is a 500 with its own reason; no header is injected', async () => {
    const { url } = await mockFile('routes:\n  - method: GET\n    path: /echo\n    headers: {X-Echo: "{{request.query.v}}"}\n    body: ok\n');
    const response = await fetch(`${url}/echo?v=${encodeURIComponent('a\r\nSet-Cookie: session=attacker')}`);
    expect([response.status, response.statusText]).toEqual([500, 'Internal Server Error']);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(((await response.json()) as { error: string }).error).toMatch(/X-Echo/);
  });

  test('an SSE route sends its events in order, repeated, then ends the stream', async () => {
    const { url } = await mockFile();
    const response = await fetch(`${url}/events?who=sam`, { signal: AbortSignal.timeout(10_000) });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text(); // resolves only because the stream ends
    const event = 'event: tick\nid: 1\ndata: {"n":1}\n\ndata: sam\n\n';
    expect(text).toBe(event + event);
  });
});

describe('reloading', () => {
  test('an edit is served without a restart; a bad edit keeps the old routes and prints one line', async () => {
    const { cli, url } = await mockFile('routes:\n  - {method: GET, path: /old, body: old}\n');
    expect(await (await fetch(`${url}/old`)).text()).toBe('old');
    files.write('api.mock.yaml', 'routes:\n  - {method: GET, path: /old, body: old}\n  - {method: GET, path: /new, body: new}\n');
    let status = 0;
    for (const deadline = Date.now() + 5_000; status !== 200 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await fetch(`${url}/new`)).status;
    }
    expect(status).toBe(200);
    await cli.waitForStdout(/mock: reloaded 2 routes from api\.mock\.yaml/);

    files.write('api.mock.yaml', 'routes:\n  - {method: GET, path: /new, pathType: nope}\n');
    await cli.waitForStderr(/mock: reload failed, still serving the previous 2 routes: api\.mock\.yaml: routes\[0\]\.pathType must be exact, prefix or regex/, 5_000);
    expect(await (await fetch(`${url}/new`)).text()).toBe('new');
  });
});

describe('errors and stopping', () => {
  test('a bad route: exit 2 naming the file and the field', async () => {
    files.write('bad.mock.yaml', 'routes:\n  - {method: GET, path: /a}\n  - {method: GET, path: "/b(", pathType: regex}\n');
    const result = await runCli(['mock', 'bad.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^reqflow: bad\.mock\.yaml: routes\[1\]\.path is not a valid regex/);
    // RE2's syntax, as restcli's (Go): lookaround and backreferences are not in it.
    files.write('perl.mock.yaml', 'routes:\n  - {method: GET, path: "/(?=a)a", pathType: regex}\n');
    const perl = await runCli(['mock', 'perl.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(perl.code).toBe(2);
    expect(perl.stderr).toMatch(/^reqflow: perl\.mock\.yaml: routes\[0\]\.path is not a valid regex \(RE2 syntax, as restcli's\): error parsing regexp: invalid or unsupported Perl syntax: `\(\?=`\n/);
    files.write('backref.mock.yaml', 'routes:\n  - {method: GET, path: "/(a)\\\\1", pathType: regex}\n');
    const backref = await runCli(['mock', 'backref.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(backref.code).toBe(2);
    expect(backref.stderr).toMatch(/^reqflow: backref\.mock\.yaml: routes\[0\]\.path is not a valid regex \(RE2 syntax, as restcli's\): error parsing regexp: invalid escape sequence: `\\1`\n/);
    files.write('delay.mock.yaml', 'routes:\n  - {method: GET, path: /a, delay: soon}\n');
    const delay = await runCli(['mock', 'delay.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(delay.stderr).toContain('reqflow: delay.mock.yaml: routes[0].delay must be milliseconds or a duration such as "250ms", "1s", got "soon"');
    expect(delay.code).toBe(2);
  });

  test.each([
    ['a body on a 204', 'routes:\n  - {method: GET, path: /a, status: 204, body: "never sent"}\n', 'routes[0] has status 204, which has no body: remove body'],
    ['a header value with a line break', 'routes:\n  - method: GET\n    path: /a\n    headers: {X-A: "a\\r\\nInjected: 1"}\n', 'routes[0].headers.X-A holds a character a header cannot carry (U+000D)'],
    ['a bodyFile that is a folder', 'routes:\n  - {method: GET, path: /a, bodyFile: .}\n', 'routes[0].bodyFile names a folder, not a file'],
    ['a misspelt top-level field', 'prot: 9000\nroutes:\n  - {method: GET, path: /a}\n', 'prot is not a mock file field (known: port, host, logging, routes, name, description)'],
    ['aliases inside aliases (a billion laughs)', `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`).join('\n')}\nroutes:\n  - {method: GET, path: /a, body: *i}\n`, 'its aliases (*name) expand to more than 1,000,000 values'],
    ['a 100 KB string aliased 1,000 times (100 MB of text in few values)', `a: &a "${'x'.repeat(100_000)}"\nb: &b [${Array(10).fill('*a').join(', ')}]\nc: &c [${Array(10).fill('*b').join(', ')}]\nd: &d [${Array(10).fill('*c').join(', ')}]\nroutes:\n  - {method: GET, path: /a, body: *d}\n`, 'its aliases (*name) expand to more than 64 MiB of text'],
    ['an alias inside its own anchor (endless)', 'routes: &r\n  - {method: GET, path: /a, body: *r}\n', 'its aliases (*name) expand to more than 1,000,000 values'],
  ])('refused at load, not at each request: %s (exit 2 naming the field)', async (_label, text, message) => {
    files.write('refused.mock.yaml', text);
    const result = await runCli(['mock', 'refused.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(`reqflow: refused.mock.yaml: ${message}`);
  });

  test('a 204 or 304 route sends no Content-Length (a client would wait for a body)', async () => {
    files.write('empty.mock.yaml', 'routes:\n  - {method: GET, path: /none, status: 204}\n  - {method: GET, path: /same, status: 304}\n');
    const { url } = await startMock(['empty.mock.yaml']);
    for (const path of ['/none', '/same']) {
      const head = await rawHead(url, path);
      expect(head).toMatch(/^HTTP\/1\.1 (204|304) /);
      expect(head.toLowerCase()).not.toContain('content-length');
    }
  });

  test('a port in use: exit 2 naming the port', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      files.write('api.mock.yaml', MOCK);
      const result = await runCli(['mock', 'api.mock.yaml', '--port', String(port)], { cwd: files.dir });
      expect(result.stderr.split('\n')[0]).toBe(`reqflow: port ${port} is in use (127.0.0.1:${port})`);
      expect(result.code).toBe(2);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('Ctrl-C stops it cleanly', async () => {
    const { cli, url } = await mockFile();
    expect((await fetch(`${url}/users`)).status).toBe(200);
    cli.kill('SIGINT');
    const result = await cli.done;
    expect(result.stdout).toContain('mock: stopped');
    expect(result.code).toBe(0);
  });
});

test('--from-openapi: each operation answers with its example, path parameters as named groups', async () => {
  files.write(
    'openapi.yaml',
    `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
  /pets/{petId}:
    get:
      operationId: getPet
      responses:
        "404": {description: missing}
        "200": {description: ok, content: {application/json: {example: {id: 7, name: Rex}}}}
    delete:
      responses:
        "204": {description: gone}
components:
  schemas:
    Pet: {type: object, properties: {id: {type: integer, example: 1}, name: {type: string, example: Fido}}}
`,
  );
  const { cli, url } = await startMock(['--from-openapi', 'openapi.yaml']);
  expect(cli.stdout()).toContain('(3 routes from openapi.yaml)');
  expect(await (await fetch(`${url}/pets`)).json()).toEqual([{ id: 1, name: 'Fido' }]);
  expect(await (await fetch(`${url}/pets/9`)).json()).toEqual({ id: 7, name: 'Rex' });
  expect((await fetch(`${url}/pets/9`, { method: 'DELETE' })).status).toBe(204);
});

describe('YAML read as request files read it (core schema, scalars as written)', () => {
  const AS_WRITTEN = `
routes:
  - method: GET
    path: /v
    headers: {X-Version: 1.10, X-Zip: 0755, X-Day: 2024-01-01}
    body: {version: 1.10, day: 2024-01-01, at: 2024-01-01T10:00:00Z, id: 12345678901234567891, echo: "{{request.query.q}}"}
  - method: GET
    path: /day
    body: 2024-01-01
  - method: GET
    path: /events
    sse: {interval: 1ms, events: [{data: {v: 1.10, day: 2024-01-01}}]}
`;

  test('a date is served as its text and 1.10 as written, in bodies, headers and events (not a timestamp, not 1.1)', async () => {
    const { url } = await mockFile(AS_WRITTEN);
    const answer = await fetch(`${url}/v?q=hi`);
    expect(answer.headers.get('x-version')).toBe('1.10');
    expect(answer.headers.get('x-zip')).toBe('0755');
    expect(answer.headers.get('x-day')).toBe('2024-01-01');
    expect(await answer.text()).toBe('{"version":1.10,"day":"2024-01-01","at":"2024-01-01T10:00:00Z","id":12345678901234567891,"echo":"hi"}');
    expect(await (await fetch(`${url}/day`)).text()).toBe('2024-01-01');
    expect(await (await fetch(`${url}/events`)).text()).toContain('data: {"v":1.10,"day":"2024-01-01"}\n');
  });

  test('a tag with no JSON form (!!binary, !!set) is refused at load, as in a request file (exit 2)', async () => {
    files.write('binary.mock.yaml', 'routes:\n  - {method: GET, path: /b, body: !!binary aGVsbG8=}\n');
    const result = await runCli(['mock', 'binary.mock.yaml', '--port', '0'], { cwd: files.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: binary\.mock\.yaml: not valid YAML: unknown tag .*binary/);
  });
});
