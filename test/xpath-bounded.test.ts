/**
 * XPath runs on reqflow's main thread, over a response: the xpath library positions and sorts
 * nodes in quadratic time, so `//item[1]/id` over a server's 8,000 sibling items took ~50 s (hours
 * at a few MB), with nothing to stop it. Parsing and selecting now run under the script time limit
 * (`--script-timeout`), as JSONPath does: past it a check fails (exit 1) and a capture is an error
 * naming it (exit 2). The runs are bounded by runCli's timeout, so a regression fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-xpath-bounded-');
const MANY = `<items>${'<item><id>1</id></item>'.repeat(8000)}</items>`;
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(req.url === '/many' ? MANY : '<user><id>7</id></user>');
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (name: string, text: string, command = 'test') => runCli([command, tmp.write(name, text), '--script-timeout', '300'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 30_000 });

describe('an XPath that would run long over a large response', () => {
  test('`?? xpath` past --script-timeout is a failed check naming the XPath and the limit (exit 1); the other checks still run', async () => {
    const result = await run('check.http', `GET ${server.url}/many\n?? xpath //item[1]/id == 1\n?? status == 200\n`);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ xpath \/\/item\[1\]\/id == 1 \(check\.http:2\)\n\s+XPath \/\/item\[1\]\/id: ran past its time limit of 300 ms/);
    expect(result.stdout).toContain('1/2 checks passed');
  }, 40_000);

  test('an XPath capture past it is an error naming the capture (exit 2)', async () => {
    const result = await run('capture.http', `# @capture c = //item[1]/id\nGET ${server.url}/many\n`, 'run');
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/# @capture c \(.*capture\.http:1\): XPath \/\/item\[1\]\/id: ran past its time limit of 300 ms/);
  }, 40_000);

  test('an ordinary XPath still answers: a check, a capture, a reference', async () => {
    const result = await run('plain.http', `# @name u\n# @capture id = //user/id\nGET ${server.url}/small\n?? xpath //user/id == 7\n\n###\nGET ${server.url}/x?{{id}}&{{u.response.body.//user/id}}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1/1 checks passed');
    expect(server.received.at(-1)?.url).toBe('/x?7&7');
  }, 40_000);
});
