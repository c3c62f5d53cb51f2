/**
 * A method is sent as written — and Node's HTTP/1.1 client upper-cases every method, so a custom
 * method written with a lower-case letter (`purge`, `Purge`) would reach the server as `PURGE`, a
 * different method (RFC 9110 §9.1: methods are case-sensitive). It is refused, exit 2 naming the
 * line or field, in every format and by every command that reads one; nothing of the file is
 * sent. The standard methods are read in any case (`get` is GET), and an upper-case custom method
 * goes out as written. A raw TCP server records the request lines (node:http's parser knows no
 * custom methods: helpers/request-line-recorder.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRequestLineRecorder, type RequestLineRecorder } from './helpers/request-line-recorder.js';

const tmp = tempDir('reqflow-method-case-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: RequestLineRecorder;
let base = '';
let lines: string[] = [];

beforeAll(async () => {
  server = await startRequestLineRecorder();
  base = server.url;
  lines = server.lines;
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** A file of two requests in `format`: a GET, then `method` to /x. */
const files: Record<string, { name: string; text: (method: string) => string; place: string }> = {
  '.http': { name: 'r.http', text: (method) => `GET ${base}/first\n\n###\n${method} ${base}/x\n`, place: 'r.http:4:1: ' },
  YAML: { name: 'r.yaml', text: (method) => `- url: ${base}/first\n- method: ${method}\n  url: ${base}/x\n`, place: 'r.yaml: requests[1].method: ' },
  JSON: { name: 'r.json', text: (method) => JSON.stringify([{ url: `${base}/first` }, { method, url: `${base}/x` }]), place: 'r.json: requests[1].method: ' },
};

describe.each(Object.entries(files))('%s', (_format, { name, text, place }) => {
  test.each([['run'], ['test'], ['run', '--dry-run'], ['run', '--as', 'curl']])('%s: a lower-case custom method is exit 2 naming where, nothing sent', async (...command) => {
    lines.length = 0;
    const file = tmp.write(name, text('purge'));
    const result = await runCli([...command.filter(Boolean), file], { cwd: tmp.dir, env });
    expect(result.code).toBe(2);
    // `reqflow test` reports a file that does not parse among its results, on stdout, without the hint.
    const said = command[0] === 'test' ? result.stdout : result.stderr;
    expect(said).toContain(place);
    expect(said).toContain('method "purge" would go out as "PURGE"');
    if (command[0] !== 'test') expect(said).toContain('hint: write PURGE if the server means that method');
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    expect(lines).toEqual([]);
  });

  test('an upper-case custom method goes out as written; a standard one in lower case is upper-cased', async () => {
    lines.length = 0;
    expect((await runCli(['run', tmp.write(name, text('PURGE'))], { cwd: tmp.dir, env })).code).toBe(0);
    expect((await runCli(['run', tmp.write(name, text('delete'))], { cwd: tmp.dir, env })).code).toBe(0);
    expect(lines).toEqual(['GET /first HTTP/1.1', 'PURGE /x HTTP/1.1', 'GET /first HTTP/1.1', 'DELETE /x HTTP/1.1']);
  });
});

test('.http: the keywords read in any case stay keywords (graphql is a GraphQL POST), and a line of prose keeps its own error', async () => {
  const dry = await runCli(['run', '--dry-run', tmp.write('g.http', `graphql ${base}/g\n\nquery { a }\n`)], { cwd: tmp.dir, env });
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain(`POST ${base}/g`);
  const prose = await runCli(['run', tmp.write('prose.http', 'this is not a request line\n')], { cwd: tmp.dir, env });
  expect(prose.code).toBe(2);
  expect(prose.stderr).toContain('unexpected text after the URL');
  expect(prose.stderr).not.toContain('would go out as');
});

test('send: a lower-case custom method is exit 2 naming it, nothing sent; PURGE and get go out as PURGE and GET', async () => {
  lines.length = 0;
  const refused = await runCli(['send', 'Purge', `${base}/x`], { cwd: tmp.dir, env });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('method "Purge" would go out as "PURGE"');
  expect(lines).toEqual([]);
  expect((await runCli(['send', 'PURGE', `${base}/y`], { cwd: tmp.dir, env })).code).toBe(0);
  expect((await runCli(['send', 'get', `${base}/z`], { cwd: tmp.dir, env })).code).toBe(0);
  expect(lines).toEqual(['PURGE /y HTTP/1.1', 'GET /z HTTP/1.1']);
});
