/**
 * `reqflow mock --from-openapi SPEC` and hostile or unusual specs (docs/mock.md): the spec (and
 * the mock file) are read within `--max-size` — 64 MiB unless told, as `reqflow import` reads
 * them, a file's size checked before a byte is read, a pipe counted as it arrives — and an
 * example's numbers are served as the spec writes them (`1.10`, a 64-bit id), not as a double
 * reads them. Against the built CLI, with real HTTP requests to the mock on 127.0.0.1.
 */
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { truncateSync } from 'node:fs';
import { BIN, runCli, runShell, tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';

const started: LiveCli[] = [];
let files: ReturnType<typeof tempDir>;

beforeEach(() => {
  files = tempDir('reqflow-mock-openapi-');
});

afterEach(async () => {
  for (const cli of started.splice(0)) {
    cli.kill('SIGKILL');
    await cli.done;
  }
  files.cleanup();
});

async function startMock(args: string[]): Promise<string> {
  const cli = startCli(['mock', ...args, '--port', '0', '--no-watch'], { cwd: files.dir, timeoutMs: 60_000 });
  started.push(cli);
  const [, url] = await cli.waitForStdout(/mock: listening on (http:\/\/127\.0\.0\.1:\d+) /, 30_000);
  return url as string;
}

const spec = (example: string, schema = '{type: object}'): string => `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /example:
    get:
      responses:
        "200": {description: ok, content: {application/json: {example: ${example}}}}
  /sampled:
    get:
      responses:
        "200": {description: ok, content: {application/json: {schema: ${schema}}}}
`;

test('an example\'s numbers are served as written (YAML and JSON specs); a schema\'s bounds still steer the sampler', async () => {
  files.write('spec.yaml', spec('{version: 1.10, id: 12345678901234567891, e: 1e3, n: 7}', '{type: number, minimum: 1.0}'));
  const url = await startMock(['--from-openapi', 'spec.yaml']);
  expect(await (await fetch(`${url}/example`)).text()).toBe('{"version":1.10,"id":12345678901234567891,"e":1e3,"n":7}');
  expect(await (await fetch(`${url}/sampled`)).text()).toBe('1');
  files.write(
    'spec.json',
    JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/j': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { examples: { one: { value: '@' } } } } } } } } } }).replace('"@"', '{"price": 2.50, "id": 98765432109876543210}'),
  );
  const json = await startMock(['--from-openapi', 'spec.json']);
  expect(await (await fetch(`${json}/j`)).text()).toBe('{"price":2.50,"id":98765432109876543210}');
});

test('--max-size: a spec or a mock file past it is exit 2 naming it and its size, before it is read', async () => {
  const text = spec('{a: 1}');
  files.write('spec.yaml', text);
  const size = Buffer.byteLength(text);
  const over = await runCli(['mock', '--from-openapi', 'spec.yaml', '--max-size', '100', '--port', '0'], { cwd: files.dir });
  expect({ code: over.code, stderr: over.stderr.trim().split('\n') }).toEqual({
    code: 2,
    stderr: [`reqflow: spec.yaml: not a readable OpenAPI document: it is ${size.toLocaleString('en')} bytes, over the mock limit of 100 bytes: not read`, `hint: raise it with --max-size BYTES (--max-size ${size}): a document takes several times its size in memory`],
  });
  // 64 MiB unless told: a sparse file of 65 MiB is refused by its size, never read.
  truncateSync(files.write('huge.yaml', ''), 65 * 1024 * 1024);
  const huge = await runCli(['mock', '--from-openapi', 'huge.yaml', '--port', '0'], { cwd: files.dir });
  expect([huge.code, huge.stderr.split('\n')[0]]).toEqual([2, 'reqflow: huge.yaml: not a readable OpenAPI document: it is 68,157,440 bytes, over the mock limit of 67,108,864 bytes: not read']);
  truncateSync(files.write('huge.mock.yaml', ''), 65 * 1024 * 1024);
  const hugeMock = await runCli(['mock', 'huge.mock.yaml', '--port', '0'], { cwd: files.dir });
  expect([hugeMock.code, hugeMock.stderr.split('\n')[0]]).toEqual([2, 'reqflow: huge.mock.yaml: it is 68,157,440 bytes, over the mock limit of 67,108,864 bytes: not read']);
  // A pipe has no size to check first: counted as it arrives.
  const piped = await runShell('/bin/sh', `yes '# a comment' | head -c 5000 | "${process.execPath}" "${BIN}" mock /dev/stdin --max-size 1000 --port 0`, { cwd: files.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  expect([piped.code, piped.stderr.split('\n')[0]]).toEqual([2, 'reqflow: /dev/stdin: more than 1,000 bytes arrived, over the mock limit of 1,000 bytes: not read']);
  for (const result of [over, huge, hugeMock, piped]) expect(result.stderr).not.toMatch(/\n\s+at /);
});
