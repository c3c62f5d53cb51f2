/**
 * httpyac's `# @import` over hostile graphs of files a repository brings: chains, diamonds,
 * cycles and chains too deep. Each file is read once per parse, whatever the graph: a chain of
 * 16 files each importing the next took a minute (every file was read again by every file above
 * it, twice: 2^n), a chain of 2,000 never ended.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-import-graphs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

/** Runs `file` of the folder `label` (a project of its own) and returns the exit code, stderr and the paths the recorder got. */
async function run(label: string, file: string): Promise<{ code: number | null; stderr: string; sent: string[] }> {
  const before = recorder.received.length;
  // The kill is a bound, not a measure: the graphs below are read in about a second.
  const result = await runCli(['run', join(tmp.dir, label, file)], { env, timeoutMs: 60_000 });
  return { code: result.code, stderr: result.stderr, sent: recorder.received.slice(before).map((r) => r.url) };
}

describe('# @import graphs', () => {
  test('a chain of 40 files, each importing the next: every file is read once, and the top request has the variables of all', async () => {
    tmp.write('chain/package.json', '{}');
    for (let i = 0; i < 40; i++) tmp.write(`chain/c${i}.http`, `# @import ./c${i + 1}.http\n@v${i} = ${i}\n### r${i}\nGET ${recorder.url}/c${i}?deepest={{v40}}\n`);
    tmp.write('chain/c40.http', `@v40 = bottom\n### r40\nGET ${recorder.url}/c40\n`);
    expect(await run('chain', 'c0.http')).toEqual({ code: 0, stderr: expect.not.stringContaining('reqflow:') as unknown as string, sent: ['/c0?deepest=bottom'] });
  });

  test('a diamond of 24 levels (two files of requests a level, each importing both of the next): 50 files read, not 2^24', async () => {
    tmp.write('diamond/package.json', '{}');
    for (let i = 0; i < 24; i++) {
      for (const side of ['a', 'b']) tmp.write(`diamond/${side}${i}.http`, `# @import ./a${i + 1}.http\n# @import ./b${i + 1}.http\n@${side}${i} = ${side}${i}\n### ${side}${i}\nGET ${recorder.url}/${side}${i}\n`);
    }
    for (const side of ['a', 'b']) tmp.write(`diamond/${side}24.http`, `@${side}24 = ${side}-bottom\n### ${side}24\nGET ${recorder.url}/${side}24\n`);
    tmp.write('diamond/top.http', `# @import ./a0.http\n# @import ./b0.http\nGET ${recorder.url}/top?a={{a24}}&b={{b24}}&mid={{b12}}\n`);
    const result = await run('diamond', 'top.http');
    expect(result).toEqual({ code: 0, stderr: expect.not.stringContaining('reqflow:') as unknown as string, sent: ['/top?a=a-bottom&b=b-bottom&mid=b12'] });
  });

  test('a cycle adds nothing: each file of it is read, the run goes on', async () => {
    tmp.write('cycle/package.json', '{}');
    tmp.write('cycle/one.http', `# @import ./two.http\n@one = 1\n### one\nGET ${recorder.url}/one?two={{two}}\n`);
    tmp.write('cycle/two.http', `# @import ./one.http\n@two = 2\n### two\nGET ${recorder.url}/two\n`);
    expect((await run('cycle', 'one.http')).sent).toEqual(['/one?two=2']);
  });

  test('a chain more than 100 files deep is exit 2 naming the file and line of the import past the limit, nothing sent', async () => {
    tmp.write('deep/package.json', '{}');
    for (let i = 0; i < 150; i++) tmp.write(`deep/d${i}.http`, `@v${i} = ${i}\n# @import ./d${i + 1}.http\n### r${i}\nGET ${recorder.url}/d${i}\n`);
    tmp.write('deep/d150.http', `GET ${recorder.url}/d150\n`);
    const result = await run('deep', 'd0.http');
    expect(result.code).toBe(2);
    expect(result.sent).toEqual([]);
    expect(result.stderr).toMatch(/^reqflow: \S*\/deep\/d99\.http:2:1: # @import \.\/d100\.http: imports go more than 100 files deep/m);
    expect(result.stderr.split('\n').filter((line) => line !== '')).toHaveLength(2);
  });
});
