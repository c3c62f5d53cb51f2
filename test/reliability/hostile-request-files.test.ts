/**
 * Request files written to exhaust the machine: a YAML file whose aliases expand
 * exponentially (the "billion laughs"), a response handler that allocates without end. Each
 * ends with a clear error in bounded time, and peak RSS — read from /proc by a preloaded
 * reporter — stays under 256 MB.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { runCli, tempDir } from '../helpers/cli.js';
import { runMeasured } from '../helpers/run-measured.js';

const LIMIT_MB = 256;
const tmp = tempDir('reqflow-hostile-files-');
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id": 1}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

/**
 * Lines made to make a pattern backtrack: each was read in time quadratic in its length (a lazy
 * value before trailing spaces, a `{{` searched for its `}}` again from every later `{{`), so
 * 200 kB took minutes. The bound is runCli's kill at 20 s; linear, they take milliseconds.
 */
test.each([
  ['an annotation whose value ends in a long run of spaces', (n: number) => `# @note=${'\t'.repeat(n)}\t#@A\nGET ${base}/\n`],
  ['a file variable whose value ends in a long run of spaces', (n: number) => `@a=a${'\t'.repeat(n)}=\nGET ${base}/\n`],
  ['a request line of `{{` never closed', (n: number) => `GET ${base}/${'}{{'.repeat(n / 3)}}\t x\n`],
  ['a GraphQL body over a long run of blank lines', (n: number) => `POST ${base}/\n\nquery { a }\n${'\n\t'.repeat(n / 2)}# x }\n`],
  ['a form over lines whose pair holds a long run of spaces', (n: number) => `POST ${base}/\nContent-Type: application/x-www-form-urlencoded\n\na${'\t'.repeat(n)}b = 1 &\nc = 2\n`],
])('%s (400 kB): read in linear time, the request built', async (_what, text) => {
  const file = tmp.write('backtrack.http', text(400_000));
  const result = await runCli(['run', file, '--dry-run'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  expect(result.signal).toBeNull();
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`${base}/`);
});

/** Eleven levels of nine aliases: 9^11 strings once expanded, from a file of 1 KiB. */
function billionLaughs(): string {
  const lines = [`a0: &a0 [${Array(9).fill('"lol"').join(', ')}]`];
  for (let i = 1; i <= 11; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\nrequests:\n  - method: POST\n    url: http://127.0.0.1:9/\n    body: *a11\n`;
}

test('a YAML file with an alias inside its own anchor: exit 2 at once (its expansion never ends)', async () => {
  const result = await runMeasured(['run', tmp.write('cycle.yaml', 'requests: &r\n  - method: POST\n    url: http://127.0.0.1:9/\n    body: *r\n')], tmp.dir);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: \S*cycle\.yaml:1:1: its aliases \(\*name\) expand to more than 1,000,000 values\n/);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
});

test('a YAML file whose aliases expand exponentially: exit 2 naming the file, nothing sent, bounded memory and time', async () => {
  const result = await runMeasured(['run', tmp.write('laughs.yaml', billionLaughs())], tmp.dir);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: \S*laughs\.yaml:1:1: its aliases \(\*name\) expand to more than 1,000,000 values\n/);
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(10_000);
});

/** A 100 KB string, ten aliases of it, ten of those, ten of those: 100 MB of text from a 100 KB file, in few values. */
function laughsOfText(): string {
  const tenOf = (name: string): string => `[${Array(10).fill(`*${name}`).join(', ')}]`;
  return `a: &a "${'x'.repeat(100_000)}"\nb: &b ${tenOf('a')}\nc: &c ${tenOf('b')}\nd: &d ${tenOf('c')}\nrequests:\n  - method: POST\n    url: http://127.0.0.1:9/\n    body: *d\n`;
}

test('a YAML file whose aliases repeat a long string into 100 MB: exit 2 counting the text, not only the values, bounded memory', async () => {
  const result = await runMeasured(['run', tmp.write('long-laughs.yaml', laughsOfText()), '--dry-run'], tmp.dir);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/^reqflow: \S*long-laughs\.yaml:1:1: its aliases \(\*name\) expand to more than 64 MiB of text\nhint: [^\n]*\n$/) });
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
});

test('anchors used as YAML intends (a shared header block) still work', async () => {
  const file = tmp.write('anchors.yaml', 'common: &common\n  Accept: application/json\nrequests:\n  - name: a\n    method: GET\n    url: http://127.0.0.1:9/a\n    headers: *common\n  - name: b\n    method: GET\n    url: http://127.0.0.1:9/b\n    headers: *common\n');
  const result = await runMeasured(['run', file, '--list'], tmp.dir);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});

test('a response handler that allocates without end: a failed check naming the memory limit, the run goes on, bounded memory', async () => {
  const file = tmp.write('hog.http', `GET ${base}/a\n\n> {%\n  const kept = [];\n  for (;;) kept.push(new Array(1e6).fill(1.5));\n%}\n\n###\nGET ${base}/b\n\n> {%\n  client.test('after', () => client.assert(response.status === 200));\n%}\n`);
  const result = await runMeasured(['test', file, '--script-timeout', '20000'], tmp.dir);
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/hog\.http:\d+.*used more than 128 MB of memory/);
  expect(result.stdout).toMatch(/1 passed, 1 failed/);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(25_000); // a hang only: the message says the memory limit, not the 20 s time limit, ended it
});

test("an httpyac script allocating 200 MB in a loop, just past the 128 MB limit, under reqflow run: that request fails naming the limit, the next request is sent and checked, exit 1, the process survives", async () => {
  // 25 arrays of 8 MB each: each allocation fits, the total does not.
  const file = tmp.write('yac-hog.http', `GET ${base}/a\n\n{{@response\n  const kept = [];\n  for (let i = 0; i < 25; i++) kept.push(new Array(1e6).fill(1.5));\n  exports.kept = kept.length;\n}}\n\n###\nGET ${base}/b\n\n?? status == 200\n`);
  const result = await runMeasured(['run', file, '--script-timeout', '20000'], tmp.dir);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/yac-hog\.http:\d+.*used more than 128 MB of memory/);
  expect(result.stderr).not.toMatch(/FATAL|heap out of memory|Aborted|\n\s+at /);
  // The second request was sent and its check ran after the worker died.
  expect(result.stderr).toMatch(/status == 200/);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(25_000); // a hang only: the message says the memory limit, not the 20 s time limit, ended it
});

test('typed arrays, whose bytes live outside the heap limit, are not in the sandbox: a clear error naming the line, bounded memory', async () => {
  const file = tmp.write('buffers.http', `GET ${base}/a\n\n> {%\n  const kept = [];\n  for (let i = 0; i < 8; i++) kept.push(new Uint8Array(50e6).fill(1));\n%}\n`);
  const result = await runMeasured(['run', file], tmp.dir);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/buffers\.http:5 \(script line 3\): ReferenceError: Uint8Array is not defined/);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
});
