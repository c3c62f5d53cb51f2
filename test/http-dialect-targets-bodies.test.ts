/**
 * Issue 27, request lines and bodies as the other tools write them (test/fixtures/dialect/): what
 * reaches a recording server, byte for byte — and what no tool agrees on is refused naming the line.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { answerGraphqlOk, startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'dialect');
const tmp = tempDir('reqflow-dialect-tb-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder(answerGraphqlOk);
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

async function run(file: string, extra: string[] = []): Promise<{ code: number | null; stderr: string; requests: Recorded[] }> {
  const before = server.received.length;
  const args = ['run', file, '-e', `host=${server.url}`, '-e', `hostPort=${server.url.slice('http://'.length)}`, '-e', 'user=ada', ...extra];
  const result = await runCli(args, { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  return { code: result.code, stderr: result.stderr, requests: server.received.slice(before) };
}

function to(requests: Recorded[], path: string): Recorded {
  const found = requests.find((r) => r.url.split('?')[0] === path);
  if (!found) throw new Error(`no request to ${path}; got ${requests.map((r) => r.url).join(', ')}`);
  return found;
}

describe('request targets over several lines', () => {
  test('JetBrains: an indented page={{x}}& line after a ? goes on with the query; indented /path parts, and a segment without a /, join the path', async () => {
    const { code, requests } = await run(join(FIXTURES, 'jetbrains', 'multiline-targets.http'));
    expect(code).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.url} ${r.body.length}`)).toEqual(['GET /multiline/query?q=a&page=ada&limit=10 0', 'GET /multiline/path?id=1&tag=x 0', 'GET /multiline/segments?page=1&size=10 0']);
    // the header below the continued target is a header, not a part of it
    expect(requests[2]?.headers.accept).toBe('application/json');
  });

  test('an indented line below a request line that ends with its version is no part of the target: exit 2 naming it, nothing sent', async () => {
    const file = tmp.write('closed-target.http', '### closed\nGET {{host}}/v1/ HTTP/1.1\n    tracks\n');
    const result = await run(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/closed-target\.http:3:1: header line has no "Name: value" form/);
    expect(result.requests).toEqual([]);
  });

  test('kulala: the origin in the Host header (scheme included) goes before the path and the Host line sends the authority; a multi-line URL with spaces', async () => {
    const { code, stderr, requests } = await run(join(FIXTURES, 'kulala', 'targets-bodies.http'));
    expect([code, stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')]).toEqual([0, '']);
    const origin = to(requests, '/kulala/origin');
    expect([origin.method, origin.url, origin.headers.host]).toEqual(['GET', '/kulala/origin?id=1', server.url.slice('http://'.length)]);
    expect(to(requests, '/kulala/multi').url).toBe('/kulala/multi?id=123&value=some%20"longer"%20content');
  });

  test('a Host variable holding a whole origin (https://…) is exit 3 naming the line and the variable, nothing sent (the host would be "https")', async () => {
    const file = tmp.write('host-origin-variable.http', '### v\nGET /p\nHost: {{origin}}\n');
    const result = await run(file, ['-e', `origin=${server.url}`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: \S*host-origin-variable\.http:2: the URL of request "v" would start with two schemes, from \{\{origin\}\}\nhint: .*GET \{\{origin\}\}\/path/);
    expect(result.requests).toEqual([]);
  });

  test('OPTIONS * goes out with the asterisk-form target (a raw server records the request line), to the Host as JetBrains and kulala write it', async () => {
    const lines: string[] = [];
    const raw = createServer((socket) =>
      socket.once('data', (data) => {
        lines.push(data.toString('latin1').split('\r\n')[0] as string);
        socket.end('HTTP/1.1 200 OK\r\nAllow: GET, OPTIONS\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }),
    );
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const authority = `127.0.0.1:${(raw.address() as AddressInfo).port}`;
    try {
      const file = tmp.write('asterisk.http', `### jetbrains\nOPTIONS * HTTP/1.1\nHost: ${authority}\n\n### kulala\nOPTIONS *\nHost: http://${authority}\n`);
      const result = await run(file, ['-v']);
      expect([result.code, lines]).toEqual([0, ['OPTIONS * HTTP/1.1', 'OPTIONS * HTTP/1.1']]);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  test('the target * on any other method is refused naming the line, nothing sent', async () => {
    const file = tmp.write('asterisk-get.http', `GET * HTTP/1.1\nHost: ${server.url}\n`);
    const result = await run(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/asterisk-get\.http:1:\d+: request line has no URL: GET \* HTTP\/1\.1\nhint: .*the target \* is OPTIONS's only/);
    expect(result.requests).toEqual([]);
  });
});

describe('bodies as the other tools write them', () => {
  test("httpyac: /* and */ on lines of their own are a comment right below the body or inside it, never sent; a /* never closed is body text", async () => {
    const { code, requests } = await run(join(FIXTURES, 'httpyac', 'block-comments.http'));
    expect(code).toBe(0);
    expect(['/httpyac/comment-below', '/httpyac/comment-inside', '/httpyac/comment-open'].map((path) => to(requests, path).body.toString())).toEqual(['{"n": 1}', 'first\nlast', 'first\n/*\nlast']);
  });

  test('kulala: GraphQL variables on the line right below the query are the variables', async () => {
    const { code, requests } = await run(join(FIXTURES, 'kulala', 'targets-bodies.http'), ['-n', 'kulalaGraphql']);
    expect(code).toBe(0);
    expect(JSON.parse(to(requests, '/kulala/graphql').body.toString())).toEqual({ query: 'query Person($id: ID) {\n  person(personID: $id) { name }\n}', variables: { id: 'ada' } });
  });

  test('rest.nvim: a form over lines ending in & is one form, spaces around = and & removed', async () => {
    const { code, requests } = await run(join(FIXTURES, 'restnvim', 'form.http'));
    expect(code).toBe(0);
    const form = to(requests, '/restnvim/form');
    expect([form.body.toString(), form.headers['content-type']]).toEqual(['key1=value1&key2=ada&key3=value3', 'application/x-www-form-urlencoded']);
  });

  test('a form line break not beside an & (a value over two lines?) is refused naming the line, nothing sent', async () => {
    const file = tmp.write('form-break.http', `POST ${server.url}/f\nContent-Type: application/x-www-form-urlencoded\n\na = 1 &\nb = 2\nc = 3\n`);
    const result = await run(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/form-break\.http:6:1: form body line does not follow an "&"/);
    expect(result.requests).toEqual([]);
  });

  test('httpyac: a GraphQL operation right below the headers is the body, its variables after a blank line', async () => {
    const { code, requests } = await run(join(FIXTURES, 'httpyac', 'bodies.http'));
    expect(code).toBe(0);
    expect(JSON.parse(to(requests, '/graphql-direct').body.toString())).toEqual({ query: 'query Me($id: ID!) { me(id: $id) { id } }', variables: { id: 'ada' } });
  });
});
