/**
 * Documents written by someone else, imported: a name, a description, a URL or a header value
 * holding a line break must never become a line of the `.http` file that the parser reads as a
 * request line or a header the document never had — a collection shared with you must not be able
 * to send your `{{token}}` to its own host.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-hostile-imports-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

function collection(items: unknown[], name = 'shared'): string {
  return JSON.stringify({ info: { name, schema: SCHEMA }, item: items });
}

test("a request or collection named with line breaks imports as one request, sent as the collection says: the token goes nowhere else", async () => {
  const injected = `\nPOST ${recorder.url}/steal\nX-Tok: {{token}}\n\nbody`;
  const source = tmp.write('named.json', collection([{ name: `list${injected}`, request: { method: 'GET', url: `${recorder.url}/list`, description: `notes${injected}` } }], `api${injected}`));
  const out = join(tmp.dir, 'named');
  const imported = await runCli(['import', 'postman', source, '-o', out], { env });
  expect(imported.code).toBe(0);
  const before = recorder.received.length;
  const run = await runCli(['run', join(out, 'named.http'), '-e', 'token=tok-secret-5150'], { env });
  expect(run.code).toBe(0);
  expect(recorder.received.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /list']);
  expect(JSON.stringify(recorder.received.slice(before))).not.toContain('tok-secret-5150');
});

test('a URL with a line break is sent percent-encoded, as Postman sends it: no header is made of it', async () => {
  const source = tmp.write('url-break.json', collection([{ name: 'u', request: { method: 'GET', url: `${recorder.url}/u\nX-Admin: true` } }]));
  const out = join(tmp.dir, 'out-url-break');
  expect((await runCli(['import', 'postman', source, '-o', out], { env })).code).toBe(0);
  const before = recorder.received.length;
  expect((await runCli(['run', join(out, 'url-break.http')], { env })).code).toBe(0);
  const sent = recorder.received.slice(before);
  expect(sent.map((r) => r.url)).toEqual(['/u%0AX-Admin:%20true']);
  expect(sent[0]?.headers['x-admin']).toBeUndefined();
});

test('a header value with a line break is exit 2 naming the request and the header; nothing is written', async () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['header', { name: 'h', request: { method: 'GET', url: `${recorder.url}/h`, header: [{ key: 'X-A', value: 'a\r\nX-Admin: true' }] } }, /request "h": header "X-A" holds a line break/],
  ];
  for (const [what, item, message] of cases) {
    const source = tmp.write(`${what}.json`, collection([item]));
    const out = join(tmp.dir, `out-${what}`);
    const result = await runCli(['import', 'postman', source, '-o', out], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    // The error and its hint (warnings about what the import found come before them).
    expect(result.stderr.trim().split('\n').filter((line) => !line.startsWith('reqflow: warning:'))).toHaveLength(2);
    expect(existsSync(out)).toBe(false);
  }
});

test('a script holding %} is refused rather than ending its block early', async () => {
  const item = { name: 's', request: { method: 'GET', url: `${recorder.url}/s` }, event: [{ listen: 'test', script: { exec: ['const end = "%}";', `GET ${recorder.url}/steal`] } }] };
  const source = tmp.write('script.json', collection([item]));
  const result = await runCli(['import', 'postman', source, '-o', join(tmp.dir, 'out-script')], { env });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/request "s": its response script holds "%}"/);
});

test("an OpenAPI tag's description over several lines stays comment lines", async () => {
  const spec = `openapi: 3.0.0\ninfo: {title: t, version: '1'}\nservers: [{url: '${recorder.url}'}]\ntags:\n  - name: pets\n    description: "first\\nGET ${recorder.url}/steal\\nsecond"\npaths:\n  /pets:\n    get:\n      tags: [pets]\n      responses: {'200': {description: ok}}\n`;
  const source = tmp.write('tags.yaml', spec);
  const out = join(tmp.dir, 'out-tags');
  expect((await runCli(['import', 'openapi', source, '-o', out], { env })).code).toBe(0);
  const text = readFileSync(join(out, 'pets.http'), 'utf8');
  expect(text).toContain(`# GET ${recorder.url}/steal`);
  const before = recorder.received.length;
  expect((await runCli(['run', join(out, 'pets.http'), '--env', 'dev'], { env, cwd: out })).code).toBe(0);
  expect(recorder.received.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /pets']);
});

test("a Postman file body naming a file outside the collection's folder that exists here is exit 2; an author's missing path is kept", async () => {
  const outside = tempDir('reqflow-outside-');
  try {
    const secret = outside.write('id_rsa', 'PRIVATE-KEY-3141\n');
    const items = (src: string): unknown[] => [{ name: 'upload', request: { method: 'POST', url: `${recorder.url}/up`, body: { mode: 'formdata', formdata: [{ key: 'f', type: 'file', src }] } } }];
    for (const src of [secret, `../../${secret.split('/').slice(-2).join('/')}`]) {
      const source = tmp.write('files/upload.json', collection(items(src)));
      const out = join(tmp.dir, 'out-upload');
      const result = await runCli(['import', 'postman', source, '-o', out], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^reqflow: Postman request "upload": its body names the file .*id_rsa, outside the collection's folder: not imported$/m);
      expect(existsSync(out)).toBe(false);
    }
    // A link inside the folder that leads outside it (an unpacked archive may hold one) is outside too.
    symlinkSync(secret, join(tmp.dir, 'files', 'photo.png'));
    const linked = await runCli(['import', 'postman', tmp.write('files/linked.json', collection(items('photo.png'))), '-o', join(tmp.dir, 'out-linked')], { env });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/^reqflow: Postman request "upload": its body names the file .*photo\.png \(a link to .*id_rsa\), outside the collection's folder: not imported$/m);
    expect(existsSync(join(tmp.dir, 'out-linked'))).toBe(false);
    // A link that stays inside the folder is fine.
    tmp.write('files/real-photo.png', 'PNG');
    symlinkSync(join(tmp.dir, 'files', 'real-photo.png'), join(tmp.dir, 'files', 'inside.png'));
    expect((await runCli(['import', 'postman', tmp.write('files/inside.json', collection(items('inside.png'))), '-o', join(tmp.dir, 'out-inside')], { env })).code).toBe(0);
    const source = tmp.write('files/author.json', collection(items('/Users/author-not-here/photo.png')));
    expect((await runCli(['import', 'postman', source, '-o', join(tmp.dir, 'out-author')], { env })).code).toBe(0);
  } finally {
    outside.cleanup();
  }
});

test("an import's warnings show the document's escape sequences, never send them to the terminal", async () => {
  const item = { name: 'evil\u001b]0;title\u0007\u001b]52;c;cHduZWQ=\u0007', request: { method: 'GET', url: `${recorder.url}/{{$randomCatsImage}}` } };
  const source = tmp.write('escapes.json', collection([item]));
  const result = await runCli(['import', 'postman', source, '-o', join(tmp.dir, 'out-escapes')], { env });
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/warning: .*dynamic variable/);
  expect(result.stderr).not.toContain('\u001b');
});

test('a collection nested 5,000 folders deep is exit 2 naming the file, not a stack overflow', async () => {
  const nested = `{"info":{"name":"c","schema":"${SCHEMA}"},"item":[${'{"name":"f","item":['.repeat(5000)}${']}'.repeat(5000)}]}`;
  const result = await runCli(['import', 'postman', tmp.write('deep.json', nested), '-o', join(tmp.dir, 'out-deep')], { env });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: .*deep\.json: nested more than 1000 levels deep: not imported$/m);
  expect(result.stderr).not.toMatch(/internal error|Maximum call stack/);
});
