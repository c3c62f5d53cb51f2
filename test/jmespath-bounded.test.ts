/**
 * JMESPath runs on reqflow's main thread, over a response, and an expression can make it run long
 * or large: over a body past a few KiB the library's `trim` functions were quadratic on a run of
 * spaces (200 kB hung a capture, an `# @extract` or a `--filter` for about a minute), and over a
 * body of any size an expression that repeats its input (`[@,@]|[@,@]|…`: 40 `|` over a 50-byte
 * body) or goes over it again and again (three nested filters over 1,000 numbers) hung the run for
 * hours, with gigabytes for the first. Every search now stops at the script time limit
 * (`--script-timeout`) and at 1 Mi characters and values made (four times a larger body): a capture
 * is then an error naming its line (exit 2), a filter exit 1 naming it — never a hang. The runs are
 * bounded by runCli's timeout, so a regression fails here rather than hanging CI.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-jmespath-bounded-');
/** 200,000 spaces between two letters: `trim` took ~40 s on it before. */
const SPACES = `a${' '.repeat(200_000)}b`;
/** Past the size searched without the runner, with a 64-bit id a double would round. */
const LARGE = `{"id":12345678901234567891,"items":${JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ n: i, name: ` item ${i} ` })))}}`;
/** Under 4 KiB: searched on the meter alone. */
const NUMBERS = JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => i) });
/** `[@,@]|` 40 times: 2^40 copies of the body, as shared references. */
const DOUBLED = `${'[@,@]|'.repeat(40)}@`;
/** Three nested filters: 500^3 (large) or 1000^3 (numbers) comparisons, making next to nothing. */
const AGAIN = 'items[?length($.items[?length($.items[?@ == `-1`]) > `0`]) > `0`]';
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/spaces') res.end(JSON.stringify({ name: SPACES }));
    else if (req.url?.startsWith('/large')) res.end(LARGE);
    else if (req.url === '/numbers') res.end(NUMBERS);
    else res.end(JSON.stringify({ name: '  ada  ' }));
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (name: string, text: string, ...more: string[]) => runCli(['run', tmp.write(name, text), '--script-timeout', '300', ...more], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 30_000 });
const PAST = /ran past its time limit of 300 ms/;
const TOO_LARGE = /a value it makes grows past 1,048,576 characters and values/;

describe('a JMESPath search that would run long', () => {
  test('a `jmespath:` capture and an `# @extract` past --script-timeout are errors naming the capture (exit 2), not a hang', async () => {
    for (const annotation of [`# @capture c = jmespath:${AGAIN}`, `# @extract c ${AGAIN}`]) {
      const result = await run('capture.http', `${annotation}\nGET ${server.url}/large\n`);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/# @(capture|extract) c \(.*capture\.http:1\): JMESPath .*ran past its time limit of 300 ms/);
    }
  }, 60_000);

  test('`--filter` and `# @filter` past it are exit 1 (the filter could not be applied to the response) naming the filter and the limit', async () => {
    const flag = await run('filter.http', `GET ${server.url}/large\n`, '--filter', AGAIN);
    expect(flag.signal).toBeNull();
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/JMESPath filter "items\[\?length.*" failed: ran past its time limit of 300 ms/);
    const annotation = await run('annotated.http', `# @filter ${AGAIN}\nGET ${server.url}/large\n`);
    expect(annotation.code).toBe(1);
    expect(annotation.stderr).toMatch(PAST);
  }, 60_000);

  test('ordinary searches still answer, small and large bodies alike, numbers as the server wrote them', async () => {
    const result = await run('plain.http', `# @capture small = jmespath:trim(name)\nGET ${server.url}/small\n\n###\n# @extract last items[-1].name\nGET ${server.url}/large?{{small}}\n\n###\nGET ${server.url}/x?{{last}}\n`);
    expect(result.code).toBe(0);
    expect(server.received.at(-2)?.url).toBe('/large?ada');
    expect(server.received.at(-1)?.url).toBe('/x?%20item%20499%20');
    const filtered = await run('large.http', `GET ${server.url}/large\n`, '--filter', '{id: id, count: length(items)}', '-o', 'raw');
    expect(filtered.code).toBe(0);
    expect(filtered.stdout).toContain('12345678901234567891');
    expect(filtered.stdout).toMatch(/"count": 500/);
    const spaces = await run('spaces.http', `GET ${server.url}/spaces\n`, '--filter', 'length(trim(name))', '-o', 'raw');
    expect(spaces.code).toBe(0); // the library's trim took ~40 s on it
    expect(spaces.stdout.trim()).toBe('200002');
  }, 60_000);
});

describe('a JMESPath search over a small body (searched on the main thread) that would run long or large', () => {
  test('`--filter` repeating its input is exit 1 at 1 Mi characters and values, promptly', async () => {
    for (const filter of [DOUBLED, `to_string(${DOUBLED})`, `(${DOUBLED}) == (${DOUBLED})`]) {
      const result = await run('small.http', `GET ${server.url}/small\n`, '--filter', filter);
      expect({ filter, signal: result.signal, code: result.code }).toEqual({ filter, signal: null, code: 1 });
      expect(result.stderr).toMatch(TOO_LARGE);
    }
  }, 120_000);

  test('`--filter` going over the body again and again is exit 1 at --script-timeout', async () => {
    const result = await run('numbers.http', `GET ${server.url}/numbers\n`, '--filter', AGAIN);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(PAST);
  }, 60_000);

  test('a `jmespath:` capture and an `# @extract` doing so are errors naming the capture (exit 2)', async () => {
    for (const annotation of [`# @capture c = jmespath:to_string(${DOUBLED})`, `# @extract c ${AGAIN}`]) {
      const result = await run('capture.http', `${annotation}\nGET ${server.url}/numbers\n`);
      expect({ annotation, signal: result.signal, code: result.code }).toEqual({ annotation, signal: null, code: 2 });
      expect(result.stderr).toMatch(/# @(capture|extract) c \(.*capture\.http:1\): JMESPath .*(ran past its time limit of 300 ms|grows past 1,048,576)/);
    }
  }, 120_000);
});
