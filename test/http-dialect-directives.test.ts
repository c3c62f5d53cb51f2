/**
 * httpyac's directives reqflow honours (docs/http-dialect.md, "Annotations of the other tools"),
 * end to end with the built CLI against a recording server: `# @sleep` waits before the request,
 * `# @disabled` is never sent, httpyac's camelCase spellings (`# @noCookieJar`, `# @noRedirect`)
 * are the kebab-case annotations — each was ignored with a warning and the request sent as if
 * it were not there.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
/** When each request arrived (ms), in the order received. */
const arrivals: number[] = [];
const tmp = tempDir('reqflow-directives-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder((req, res) => {
    arrivals.push(performance.now());
    if (req.url === '/login') res.setHeader('set-cookie', 'sid=abc; Path=/');
    if (req.url === '/moved') return void res.writeHead(302, { location: '/target' }).end();
    res.end('ok');
  });
  tmp.write('package.json', '{}');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

async function reqflow(file: string, text: string, args: string[] = []) {
  tmp.write(file, text);
  const before = recorder.received.length;
  const result = await runCli(['run', file, ...args], { env, cwd: tmp.dir });
  return { ...result, got: recorder.received.slice(before), at: arrivals.slice(before) };
}

describe('httpyac directives', () => {
  test('# @sleep 1000 waits that many milliseconds before the request goes out', async () => {
    const result = await reqflow('sleep.http', `GET ${recorder.url}/first\n\n###\n# @sleep 1000\nGET ${recorder.url}/second\n`);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/first', '/second']);
    expect(result.stderr).not.toContain('unknown annotation');
    // A lower bound only: a busy machine makes the gap longer, never shorter.
    expect((result.at[1] as number) - (result.at[0] as number)).toBeGreaterThanOrEqual(990);
  });

  test('# @sleep with no whole number of milliseconds is exit 2 naming the line, nothing sent', async () => {
    const result = await reqflow('sleep-bad.http', `GET ${recorder.url}/one\n\n###\n# @sleep {{delay}}\nGET ${recorder.url}/two\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sleep-bad\.http:4:1: # @sleep \{\{delay\}\}: expects a whole number of milliseconds/);
    expect(result.got).toEqual([]);
  });

  test('# @disabled: that request is not sent (said on stderr with its line), the others are', async () => {
    const result = await reqflow('disabled.http', `GET ${recorder.url}/a\n\n###\n# @name off\n# @disabled\nPOST ${recorder.url}/never\n\n{"x": 1}\n\n###\nGET ${recorder.url}/b\n`);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/a', '/b']);
    expect(result.stderr).toMatch(/disabled\.http:5: request "off" is disabled \(# @disabled\): not sent/);
  });

  test('# @disabled with a condition (httpyac JavaScript) is exit 2 naming the line, nothing sent; # @disabled false runs', async () => {
    const refused = await reqflow('disabled-if.http', `GET ${recorder.url}/a\n\n###\n# @disabled {{env}} === 'prod'\nGET ${recorder.url}/maybe\n`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/disabled-if\.http:4:1: # @disabled .*reqflow does not evaluate a condition here/);
    expect(refused.got).toEqual([]);
    const runs = await reqflow('disabled-false.http', `# @disabled false\nGET ${recorder.url}/runs\n`);
    expect(runs.code).toBe(0);
    expect(runs.got.map((r) => r.url)).toEqual(['/runs']);
  });

  test('# @noCookieJar is # @no-cookie-jar: the cookie a response set is not sent by that request, and is by the next', async () => {
    const result = await reqflow('cookies.http', `GET ${recorder.url}/login\n\n###\n# @noCookieJar\nGET ${recorder.url}/without\n\n###\nGET ${recorder.url}/with\n`);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('unknown annotation');
    expect(result.got.map((r) => [r.url, r.headers.cookie])).toEqual([['/login', undefined], ['/without', undefined], ['/with', 'sid=abc']]);
  });

  test('# @noRedirect is # @no-redirect: not followed, even with -L', async () => {
    const result = await reqflow('redirect.http', `# @noRedirect\nGET ${recorder.url}/moved\n`, ['-L']);
    expect(result.stderr).not.toContain('unknown annotation');
    expect(result.got.map((r) => r.url)).toEqual(['/moved']);
  });
});
