/**
 * JMESPath runs on reqflow's main thread, over a response: the library's `trim` functions build a
 * regular expression that is quadratic on a long run of spaces, so a server's 200 kB of them hung
 * a capture, an `# @extract` or a `--filter` for about a minute (hours at a few MB). Each search of a
 * document past a few KiB now runs under the script time limit (`--script-timeout`), as JSONPath
 * does: past it a capture is an error naming its line (exit 2), a filter exit 1 naming it — never a hang. The
 * runs are bounded by runCli's timeout, so a regression fails here rather than hanging CI.
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
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/spaces') res.end(JSON.stringify({ name: SPACES }));
    else if (req.url?.startsWith('/large')) res.end(LARGE);
    else res.end(JSON.stringify({ name: '  ada  ' }));
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (name: string, text: string, ...more: string[]) => runCli(['run', tmp.write(name, text), '--script-timeout', '300', ...more], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 30_000 });
const PAST = /ran past its time limit of 300 ms/;

describe('a JMESPath search that would run long', () => {
  test('a `jmespath:` capture and an `# @extract` past --script-timeout are errors naming the capture (exit 2), not a hang', async () => {
    for (const annotation of ['# @capture c = jmespath:trim(name)', '# @extract c trim_right(name)']) {
      const result = await run('capture.http', `${annotation}\nGET ${server.url}/spaces\n`);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/# @(capture|extract) c \(.*capture\.http:1\): JMESPath .*trim.*ran past its time limit of 300 ms/);
    }
  }, 60_000);

  test('`--filter` and `# @filter` past it are exit 1 (the filter could not be applied to the response) naming the filter and the limit', async () => {
    const flag = await run('filter.http', `GET ${server.url}/spaces\n`, '--filter', 'trim(name)');
    expect(flag.signal).toBeNull();
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/JMESPath filter "trim\(name\)" failed: ran past its time limit of 300 ms/);
    const annotation = await run('annotated.http', `# @filter trim(name)\nGET ${server.url}/spaces\n`);
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
  }, 60_000);
});
