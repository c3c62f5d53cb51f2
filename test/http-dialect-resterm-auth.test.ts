/**
 * resterm's `# @auth` with arguments (docs/http-dialect.md, "Authorization shorthands"): what
 * reaches a recording server, header by header — a file-scoped auth must reach every request below
 * it (it was dropped with the banner block, and the requests went out without credentials), and
 * what reqflow does not run (`oauth2`) is refused naming the line, nothing sent (`command`, which
 * runs in a trusted project only: trust-resterm-command.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'dialect', 'resterm', 'auth.http');
const tmp = tempDir('reqflow-resterm-auth-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder();
  tmp.write('package.json', '{}');
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

async function run(file: string): Promise<{ code: number | null; stderr: string; requests: Recorded[] }> {
  const before = server.received.length;
  const args = ['run', file, '-e', `host=${server.url}`, '-e', 'fileToken=F1', '-e', 'key=K1', '--no-extract'];
  const result = await runCli(args, { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, cwd: tmp.dir });
  return { code: result.code, stderr: result.stderr, requests: server.received.slice(before) };
}

describe("resterm's # @auth", () => {
  test('file scope reaches every request below; a request\'s own auth replaces it, none turns it off, a written header wins', async () => {
    const { code, requests } = await run(FIXTURE);
    expect(code).toBe(0);
    const auth = (r: Recorded): [string, string | undefined, string | undefined, string | undefined] => [r.url, r.headers.authorization, r.headers['x-api-key'] as string | undefined, r.headers['x-custom'] as string | undefined];
    expect(requests.map(auth)).toEqual([
      ['/resterm/file', 'Bearer F1', undefined, undefined],
      ['/resterm/basic', `Basic ${Buffer.from('ada:s3cret').toString('base64')}`, undefined, undefined],
      // One auth per request, as in resterm: the request's own replaces the inherited one.
      ['/resterm/apikey', undefined, 'K1', undefined],
      ['/resterm/custom', undefined, undefined, 'custom-value'],
      ['/resterm/none', undefined, undefined, undefined],
      ['/resterm/written', 'Bearer written', undefined, undefined],
    ]);
  });

  test.each([
    ['OAuth 2.0, for the request', '### a\n# @auth oauth2 token_url={{host}}/token client_id=a', 2],
    ['an API key in the query', '### a\n# @auth apikey query key {{key}}', 2],
  ])('%s: exit 2 naming the line, nothing sent', async (_, head, line) => {
    const file = tmp.write('refused.http', `${head}\nGET {{host}}/refused\n`);
    const { code, stderr, requests } = await run(file);
    expect(code).toBe(2);
    expect(stderr).toContain(`refused.http:${line}: # @auth `);
    expect(stderr).toContain("reqflow sends resterm's basic, bearer, apikey header, command and NAME VALUE forms only");
    expect(requests).toEqual([]);
  });
});
