/**
 * `reqflow import postman` and `reqflow import har`: a Postman v2.1 collection (folders, auth
 * inheritance, bodies, scripts) and a Chromium HAR become files that run with `--env NAME`;
 * and every import refuses to overwrite, and reports bad input on one line.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport, runImported, stageFixture } from './helpers/import-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
beforeAll(async () => {
  // Answers as the Notes API would: a token for the login, the note for its creation.
  server = await startRecorder((req, res) => {
    if (req.url === '/api/login') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"token":"tok-from-login"}');
    if (req.method === 'POST' && req.url === '/api/notes') return void res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"id":7,"title":"Shopping"}');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":{"notes":[]}}');
  });
});
afterAll(() => server.close());

describe('Postman collection v2.1', () => {
  test('folders to files, variables and the environment to http-client.env.json, auth inherited, bodies, scripts as handlers', async () => {
    const staged = stageFixture('postman/notes.postman_collection.json', { 'https://notes.example.com/api': `${server.url}/api` }, ['postman/staging.postman_environment.json', 'postman/receipt.txt']);
    try {
      const imported = await runImport(['postman', staged.source, '--environment', 'staging.postman_environment.json', '-o', 'out'], staged.dir);
      expect(imported.code).toBe(0);
      expect(imported.stderr).toContain('Postman request "Create note": test script uses postman.setNextRequest, which reqflow\'s scripts do not have: kept as comments');
      const out = join(staged.dir, 'out');
      expect(['auth.http', 'auth/admin.http', 'notes.http'].every((f) => existsSync(join(out, f)))).toBe(true);
      expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8'))).toEqual({ staging: { baseUrl: 'https://staging.notes.example.com/api', username: 'ada', noteId: '' } });
      expect(JSON.parse(readFileSync(join(out, 'http-client.private.env.json'), 'utf8'))).toEqual({ staging: { password: 's3cret-staging', password2: 'adm1n-pass', apiKey: 'k-123456' } });
      const base = ['--env', 'staging', '-e', `baseUrl=${server.url}/api`];

      // The login's test script sets authToken; the handlers' checks pass.
      let before = server.received.length;
      const login = await runImported(join(out, 'auth.http'), out, [...base, '-o', 'json']);
      expect(login.code).toBe(0);
      expect(login.stdout).toContain('"logged in"');
      expect(JSON.parse(server.received[before]?.body.toString() ?? '')).toEqual({ username: 'ada', password: 's3cret-staging' });

      before = server.received.length;
      const admin = await runImported(join(out, 'auth', 'admin.http'), out, base);
      expect(admin.code).toBe(0);
      expect(server.received[before]?.url).toBe('/api/admin/audit?since=2024-01-01&limit=50');
      expect(server.received[before]?.headers.authorization).toBe(`Basic ${Buffer.from('admin:adm1n-pass').toString('base64')}`);
      expect(server.received[before]?.headers['x-debug']).toBeUndefined();

      before = server.received.length;
      const notes = await runImported(join(out, 'notes.http'), out, [...base, '-e', 'authToken=tok-1']);
      expect(notes.code).toBe(0);
      const [create, get, search, attach, graphql] = server.received.slice(before);
      expect(create?.headers.authorization).toBe('Bearer tok-1');
      expect(create?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(create?.body.toString()).toBe('{"title": "Shopping", "items": ["milk", "bread"]}');
      // noteId came from the create request's handler (client.global.set).
      expect(get?.url).toBe('/api/notes/7');
      expect(search?.headers['x-api-key']).toBe('k-123456');
      expect(search?.body.toString()).toBe('q=milk%20%26%20bread&owner=ada');
      expect(attach?.body.toString()).toContain('filename="receipt.txt"\r\nContent-Type: application/octet-stream\r\n\r\ntotal: 12.50 EUR\n\r\n');
      expect(JSON.parse(graphql?.body.toString() ?? '')).toEqual({ query: 'query Notes($first: Int) {\n  notes(first: $first) { id title }\n}', variables: { first: 2 } });
    } finally {
      staged.cleanup();
    }
  });
});

describe('HAR (Chromium)', () => {
  test('entries in order; pseudo-headers and content-length dropped, sec-ch-* kept, bodies byte for byte; cookies only with --cookies', async () => {
    const staged = stageFixture('har/app.example.com.har', { 'https://app.example.com': server.url, 'https://telemetry.example.net': server.url });
    try {
      const plain = await runImport(['har', staged.source, '-o', 'plain'], staged.dir);
      expect(plain.code).toBe(0);
      expect(plain.stderr).toContain('1 entry is not http(s)');
      expect(plain.stderr).toContain('pass --cookies');
      const before = server.received.length;
      const run = await runImported(join('plain', 'app.example.com.http'), staged.dir, ['--env', 'dev']);
      expect(run.code).toBe(0);
      const [list, create, events] = server.received.slice(before);
      expect(list?.url).toBe('/api/projects?page=2&per_page=20');
      expect(list?.headers.authorization).toBe('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl');
      expect(list?.headers['sec-ch-ua']).toBe('"Chromium";v="131", "Not_A Brand";v="24"');
      expect(list?.headers.cookie).toBeUndefined();
      // `{{not a template}}` in a recorded body is sent as recorded.
      expect(create?.body.toString()).toBe('{"name":"Analytical Engine","tags":["history","{{not a template}}"]}');
      expect(events?.url).toBe('/v1/events?key=pk_live_51Hx');
      expect(events?.body.toString()).toBe('event=view&page=%2Fprojects\n');
      const http = readFileSync(join(staged.dir, 'plain', 'app.example.com.http'), 'utf8');
      expect(http).not.toMatch(/^:authority|^content-length/im);

      const withCookies = await runImport(['har', staged.source, '-o', 'cookies', '--per-host', '--cookies'], staged.dir);
      expect(withCookies.code).toBe(0);
      const host = server.url.replace('http://', '').replace(':', '-');
      const again = server.received.length;
      expect((await runImported(join('cookies', `${host}.http`), staged.dir, ['--env', 'dev'])).code).toBe(0);
      expect(server.received[again]?.headers.cookie).toBe('sid=abc123; theme=dark');
    } finally {
      staged.cleanup();
    }
  });
});

describe('bodies a HAR or a collection holds in other shapes', () => {
  const tmp = tempDir('reqflow-import-shapes-');
  afterAll(() => tmp.cleanup());

  test('a HAR body saved in base64 is sent as its bytes, from a .bin file (whatever its type); a file field, whose content a HAR does not keep, is a warning', async () => {
    const har = { log: { entries: [
      { request: { method: 'PUT', url: `${server.url}/bytes`, headers: [], postData: { mimeType: 'application/octet-stream', text: Buffer.from([0, 0xff, 0xfe, 1]).toString('base64'), encoding: 'base64' } } },
      { request: { method: 'PUT', url: `${server.url}/json-bytes`, headers: [{ name: 'Content-Type', value: 'application/json' }], postData: { mimeType: 'application/json', text: Buffer.from([0x7b, 0xc3, 0x28, 0x7d]).toString('base64'), encoding: 'base64' } } },
      { request: { method: 'POST', url: `${server.url}/form`, headers: [], postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'f', value: 'zz', fileName: 'a.txt' }] } } },
    ] } };
    tmp.write('shapes/s.har', JSON.stringify(har));
    const imported = await runImport(['har', 's.har', '-o', 'out'], join(tmp.dir, 'shapes'));
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('the form field "f" was the file "a.txt", whose content a HAR does not keep');
    const before = server.received.length;
    expect((await runImported(join('out', 's.http'), join(tmp.dir, 'shapes'), ['--env', 'dev'])).code).toBe(0);
    expect(server.received.slice(before).map((r) => [r.url, r.body.toString('hex')])).toEqual([['/bytes', '00fffe01'], ['/json-bytes', '7bc3287d'], ['/form', Buffer.from('f=zz').toString('hex')]]);
    // docs/import.md: bytes that are no text are in `.bin` files, not `.txt` or `.json` an editor would change.
    const bodies = readdirSync(join(tmp.dir, 'shapes', 'out', 's.bodies')).sort();
    expect(bodies).toEqual(['put-bytes.bin', 'put-json-bytes.bin']);
    expect(readFileSync(join(tmp.dir, 'shapes', 'out', 's.http'), 'utf8')).toContain('< ./s.bodies/put-bytes.bin\n');
  });

  test('Postman form-data under a Content-Type the request sets: the boundary is the body\'s', async () => {
    const collection = { info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [
      { name: 'no-boundary', request: { method: 'POST', url: `${server.url}/m1`, header: [{ key: 'Content-Type', value: 'multipart/form-data' }], body: { mode: 'formdata', formdata: [{ key: 'a', value: '1', type: 'text' }] } } },
      { name: 'own-boundary', request: { method: 'POST', url: `${server.url}/m2`, header: [{ key: 'Content-Type', value: 'multipart/form-data; boundary=XyZ' }], body: { mode: 'formdata', formdata: [{ key: 'b', value: '2', type: 'text' }] } } },
    ] };
    tmp.write('pm/c.json', JSON.stringify(collection));
    const imported = await runImport(['postman', 'c.json', '-o', 'out'], join(tmp.dir, 'pm'));
    expect(imported.code).toBe(0);
    const before = server.received.length;
    expect((await runImported(join('out', 'c.http'), join(tmp.dir, 'pm'), ['--env', 'dev'])).code).toBe(0);
    const [m1, m2] = server.received.slice(before);
    expect(m1?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=reqflow-import-[0-9a-f]{24}$/);
    const boundary = /boundary=(\S+)/.exec(m1?.headers['content-type'] ?? '')?.[1] ?? '';
    expect(m1?.body.toString()).toBe(`--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${boundary}--`);
    expect(m2?.headers['content-type']).toBe('multipart/form-data; boundary=XyZ');
    expect(m2?.body.toString()).toBe('--XyZ\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--XyZ--');
  });

  test('Postman: the auth\'s header wins over the request\'s own, several files of a field are each sent, a header with no name is left out', async () => {
    tmp.write('pm2/in.txt', 'one');
    tmp.write('pm2/in2.txt', 'two');
    const collection = { info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, auth: { type: 'bearer', bearer: [{ key: 'token', value: 'coltoken-123456' }] }, item: [
      { name: 'own-auth', request: { method: 'GET', url: `${server.url}/auth`, header: [{ key: 'Authorization', value: 'Basic manual==' }, { key: '', value: 'noname' }] } },
      { name: 'files', request: { method: 'POST', url: `${server.url}/files`, auth: { type: 'noauth' }, body: { mode: 'formdata', formdata: [{ key: 'f', type: 'file', src: ['in.txt', 'in2.txt'] }] } } },
      { name: 'literal', request: { method: 'GET', url: `${server.url}/lit?password=hunter2secret&x=1`, auth: { type: 'noauth' }, header: [{ key: 'Cookie', value: 'sid=abc123secret' }] } },
    ] };
    tmp.write('pm2/c.json', JSON.stringify(collection));
    const imported = await runImport(['postman', 'c.json', '-o', 'out'], join(tmp.dir, 'pm2'));
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('a header with no name, left out as Postman leaves it out');
    expect(imported.stderr).toContain('its own Authorization header is replaced by the auth it uses, as Postman sends it');
    const before = server.received.length;
    expect((await runImported(join('out', 'c.http'), join(tmp.dir, 'pm2'), ['--env', 'dev'])).code).toBe(0);
    const [auth, files, literal] = server.received.slice(before);
    expect(auth?.headers.authorization).toBe('Bearer coltoken-123456');
    // Literal credentials in a header or the URL: in the private file, as curl's and a HAR's; sent as written.
    const http = readFileSync(join(tmp.dir, 'pm2/out/c.http'), 'utf8');
    expect(http).not.toMatch(/abc123secret|hunter2secret|coltoken-123456/);
    expect(readFileSync(join(tmp.dir, 'pm2/out/http-client.private.env.json'), 'utf8')).toMatch(/abc123secret[\s\S]*hunter2secret|hunter2secret[\s\S]*abc123secret/);
    expect([literal?.url, literal?.headers.cookie]).toEqual(['/lit?password=hunter2secret&x=1', 'sid=abc123secret']);
    const boundary = /boundary=(\S+)/.exec(files?.headers['content-type'] ?? '')?.[1] ?? '';
    expect(files?.body.toString()).toBe(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="in.txt"\r\nContent-Type: application/octet-stream\r\n\r\none\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="in2.txt"\r\nContent-Type: application/octet-stream\r\n\r\ntwo\r\n--${boundary}--`);
  });
});

describe('writing the files', () => {
  const tmp = tempDir('reqflow-import-write-');
  afterAll(() => tmp.cleanup());

  test('an existing file is not overwritten: exit 2 naming it, nothing written; --force replaces', async () => {
    const command = ['curl', 'curl https://x.example/a', '-o', 'out'];
    expect((await runImport(command, tmp.dir)).code).toBe(0);
    writeFileSync(join(tmp.dir, 'out', 'http-client.env.json'), '{"dev": {"mine": "1"}}');
    const refused = await runImport(command, tmp.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`reqflow: ${join('out', 'get-a.http')} exists: not overwritten\nhint: pass --force to replace it, or -o DIR to import into another folder\n`);
    expect(readFileSync(join(tmp.dir, 'out', 'http-client.env.json'), 'utf8')).toBe('{"dev": {"mine": "1"}}');
    const forced = await runImport([...command, '--force'], tmp.dir);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp.dir, 'out', 'http-client.env.json'), 'utf8'))).toEqual({ dev: {} });
  });

  test.each([
    ['openapi', 'broken.yaml', 'openapi: 3.0.0\ninfo: [\n', /^reqflow: broken\.yaml: not valid YAML or JSON: /],
    ['openapi', 'not-a-spec.json', '{"hello": "world"}', /^reqflow: not-a-spec\.json: not an OpenAPI or Swagger document \(no "openapi" or "swagger" field\)$/m],
    ['postman', 'broken.json', '{"info": ', /^reqflow: broken\.json:1:10: not valid JSON/],
    ['postman', 'v1.json', '{"id": "x", "name": "old", "requests": []}', /^reqflow: v1\.json: not a Postman collection v2\.0 or v2\.1 \(this is the v1 format\)$/m],
    ['har', 'not-har.json', '{"log": {}}', /^reqflow: not-har\.json: not a HAR file \(no log\.entries\)$/m],
    ['har', 'missing.har', null, /^reqflow: no such file: missing\.har$/m],
  ])('import %s %s: one line naming the file, exit 2, no stack trace', async (kind, name, text, message) => {
    if (text !== null) writeFileSync(join(tmp.dir, name), text);
    const result = await runImport([kind, name, '-o', join(tmp.dir, `bad-${name}`)], tmp.dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(tmp.dir, `bad-${name}`))).toBe(false);
  });
});
