/**
 * An error about what a request says that would name no place — a URL that is not one, a header
 * value HTTP does not allow — starts with where the request is written: `file:line` in a `.http`
 * file or on stdin, the file and the request's name in a YAML or JSON file. `reqflow send`'s
 * request is its command line, named as such. The other requests of the file still run.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir('reqflow-request-place-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const cli = (args: string[], input?: string) => runCli(args, { cwd: tmp.dir, env, ...(input === undefined ? {} : { input }) });
const reqflowLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('reqflow: '));

test('a .http file: the URL, the header written in the request and the header a variable made are each named by their request line; the good request is sent', async () => {
  tmp.write('api.http', `@host = host123/v1\n\n### one\nGET {{host}}/x\n\n### two\nGET ${server.url}/two\nCookie: 名前=値\n\n### three\nGET ${server.url}/three\nX-A: {{v}}\n\n### four\nGET ${server.url}/four\n`);
  const before = server.received.length;
  const result = await cli(['run', 'api.http', '-e', 'v=é✓', '--no-history']);
  expect(result.code).toBe(2);
  expect(reqflowLines(result.stderr)).toEqual([
    'reqflow: api.http:4: not a valid URL: "host123/v1/x"',
    `reqflow: api.http:7: GET ${server.url}/two: header "Cookie" cannot be sent: its value holds a character past ASCII (U+540D)`,
    'reqflow: api.http:11: header X-A of request "three" would contain a character a header cannot hold (U+00E9), from {{v}}',
  ]);
  expect(server.received.slice(before).map((r) => r.url)).toEqual(['/four']);
});

test('a YAML file names the file and the request (its requests may share a line); stdin names its line', async () => {
  tmp.write('api.yaml', `requests:\n  - name: one\n    url: ${server.url}/one\n  - name: two\n    url: ftp://example.com/file\n`);
  const yaml = await cli(['run', 'api.yaml', '--no-history']);
  expect([yaml.code, reqflowLines(yaml.stderr)]).toEqual([2, ['reqflow: api.yaml: request "two": unsupported URL scheme "ftp" in ftp://example.com/file']]);
  const stdin = await cli(['run', '-', '--no-history'], `GET ${server.url}/ok\n\n###\nGET http://localhost:99999/x\n`);
  expect([stdin.code, reqflowLines(stdin.stderr)]).toEqual([2, ['reqflow: <stdin>:4: port 99999 is out of range (1–65535) in http://localhost:99999/x']]);
});

test('reqflow send: the command line is the request, so no place; a value past ASCII is named as such, not as a line break', async () => {
  const result = await cli(['send', `${server.url}/x`, '-H', 'X-A: 名']);
  expect([result.code, reqflowLines(result.stderr)]).toEqual([2, ['reqflow: -H X-A: the value holds a character a header cannot hold (U+540D)']]);
  const broken = await cli(['send', `${server.url}/x`, '-H', 'X-A: a\rb']);
  expect(reqflowLines(broken.stderr)).toEqual(['reqflow: -H X-A: the value holds a line break']);
});

test('a template inside a template ({{host.{{env}}}}, as Postman writes it) is exit 2 naming it and its line: never sent with its outer braces as text', async () => {
  tmp.write('nested.http', `### ok\nGET ${server.url}/ok?v={{{v}}}&w={{v}}{{v}}\n\n### nested\nGET ${server.url}/x?h={{host.{{v}}}}\n`);
  const before = server.received.length;
  const result = await cli(['run', 'nested.http', '-e', 'v=1', '-e', 'host.1=h', '--no-history']);
  expect([result.code, reqflowLines(result.stderr)]).toEqual([2, ['reqflow: nested.http:5: a template inside a template ({{host.{{v}}}}) is not supported in request "nested"']]);
  // Triple braces and templates side by side are no nesting: sent as before.
  expect(server.received.slice(before).map((r) => r.url)).toEqual(['/ok?v={1}&w=11']);
});

test('a template opened in a body and holding templates on the lines below: one line naming where it opens, a short excerpt on one line', async () => {
  tmp.write('nested-body.http', `POST ${server.url}/x\n{{{\nX: {{l.response.headers.a}}\nY: {{l.response.headers.bbbbbbbbbbbbbbbbbbbbbbbb}}\n`);
  const result = await cli(['run', 'nested-body.http', '--dry-run']);
  expect({ code: result.code, stderr: result.stderr }).toEqual({
    code: 2,
    stderr: 'reqflow: nested-body.http:2: a template inside a template ({{ X: {{l.response.headers.a}} Y: {{l.response.headers.bbbb…) is not supported in request "request-1"\nhint: give the inner name\'s value a variable of its own, or write the name out\n',
  });
});

test('the inner name also written above the outer template (in the URL): the line named is where the outer one opens, never line 0', async () => {
  tmp.write('nested-twice.http', `### first\nGET ${server.url}/ok\n\n### second\nPOST ${server.url}/x?q={{a}}\n\n{{{\nX: {{a}}\n}}\n`);
  const result = await cli(['run', 'nested-twice.http', '-n', 'second', '-e', 'a=1', '--dry-run']);
  expect([result.code, reqflowLines(result.stderr)]).toEqual([2, ['reqflow: nested-twice.http:7: a template inside a template ({{ X: {{a}} }}) is not supported in request "second"']]);
});
