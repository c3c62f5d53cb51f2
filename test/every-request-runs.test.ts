/**
 * No request of a file is ever skipped: every multi-request form of every format, through every
 * command that runs a file. (The chain once took the requests of a YAML list — which all start
 * on line 1 — for one request that had already run, and silently sent only the first.)
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir();

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ path: req.url, id: 7 }));
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** The three requests of every form: a, b (a POST with a body), and one that reads a's response. */
function forms(base: string): Record<string, string> {
  const third = `${base}/c?from={{a.response.body.$.id}}`;
  const items = [
    { name: 'a', url: `${base}/a` },
    { name: 'b', method: 'POST', url: `${base}/b`, body: { x: 1 } },
    { name: 'c', url: third },
  ];
  const yamlList = items.map((item) => `- ${Object.entries(item).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n  ')}`).join('\n');
  return {
    'list.http': `### a\nGET ${base}/a\n\n### b\nPOST ${base}/b\nContent-Type: application/json\n\n{"x": 1}\n\n### c\nGET ${third}\n`,
    'list.yaml': `${yamlList}\n`,
    'requests.yaml': `requests:\n${yamlList.replace(/^/gm, '  ')}\n`,
    'array.json': JSON.stringify(items),
    'requests.json': JSON.stringify({ requests: items }, null, 2),
    'one-line.json': JSON.stringify({ requests: items }),
  };
}

const paths = (): string[] => server.received.map((r) => r.url);

describe.each(Object.keys(forms('')))('%s', (name) => {
  let file: string;
  beforeAll(() => {
    file = tmp.write(`${name.replace('.', '-')}/${name}`, forms(server.url)[name] as string);
  });

  test('run sends every request, in order, once', async () => {
    server.received.length = 0;
    const result = await runCli(['run', file, '-o', 'raw'], { env: { REQFLOW_STATE_DIR: tmp.dir } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['/a', '/b', '/c?from=7']);
    expect(server.received[1]?.method).toBe('POST');
    expect(JSON.parse(server.received[1]?.body.toString() ?? '')).toEqual({ x: 1 });
  });

  test('run -o json has a response record for every request', async () => {
    server.received.length = 0;
    const result = await runCli(['run', file, '-o', 'json'], { env: { REQFLOW_STATE_DIR: tmp.dir } });
    expect(result.code).toBe(0);
    const names = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; name: string }).filter((r) => r.type === 'response').map((r) => r.name);
    expect(names).toEqual(['a', 'b', 'c']);
    expect(paths()).toEqual(['/a', '/b', '/c?from=7']);
  });

  test('test runs and counts every request', async () => {
    server.received.length = 0;
    const result = await runCli(['test', file], { env: { REQFLOW_STATE_DIR: tmp.dir } });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toMatch(/3 requests in 1 file/);
    expect(paths()).toEqual(['/a', '/b', '/c?from=7']);
  });

  test('--dry-run shows every request and sends none', async () => {
    server.received.length = 0;
    const result = await runCli(['run', file, '--dry-run'], { env: { REQFLOW_STATE_DIR: tmp.dir } });
    expect(result.code).toBe(0);
    expect(result.stdout.match(/^### (\w+)$/gm)).toEqual(['### a', '### b', '### c']);
    expect(result.stdout).toMatch(/^POST .*\/b$/m);
    expect(server.received).toEqual([]);
  });

  test('-n picks one request, and a later one that refers to an earlier one runs that first', async () => {
    server.received.length = 0;
    const result = await runCli(['run', file, '-n', 'c', '-o', 'raw'], { env: { REQFLOW_STATE_DIR: tmp.dir } });
    expect(result.code).toBe(0);
    expect(paths()).toEqual(['/a', '/c?from=7']);
  });
});
