/**
 * A private environment value inside a URL is masked in the forms the URL gives it: `--as curl`
 * prints the target as reqflow sends it (`sesame/open 42` as `sesame/open%2042`, neither the value
 * nor its encodeURIComponent form), and a secret host comes back lower-cased in network errors.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { closedPort } from '../helpers/oauth-fixture.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

const tmp = tempDir('reqflow-secrets-in-urls-');
let server: Recorder;
let downPort: number;

beforeAll(async () => {
  server = await startRecorder();
  downPort = await closedPort();
  tmp.write('package.json', '{}');
  tmp.write('http-client.env.json', JSON.stringify({ dev: { api: server.url } }));
  tmp.write('http-client.private.env.json', JSON.stringify({ dev: { pw: 'sesame/open 42', quoted: 'sesame"open 42', accented: 'sesame/opené', host: 'LocalHost' } }));
  tmp.write('r.http', `### path\nGET {{api}}/p/{{pw}}/x\n\n### quoted\nGET {{api}}/p/{{quoted}}/x?q={{quoted}}\n\n### accented\nGET {{api}}/p/{{accented}}\n\n### host\nGET http://{{host}}:${downPort}/x\n`);
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (...args: string[]) => runCli(['run', join(tmp.dir, 'r.http'), '--env', 'dev', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
const clear = ['sesame/open', 'sesame"open', 'sesame%22open', 'open%2042', 'opené', 'open%C3%A9', 'LocalHost', 'localhost'];

describe('a secret inside a URL', () => {
  test.each(['path', 'quoted', 'accented'])('%s: --as curl, --dry-run and -v mask it as the URL encodes it', async (name) => {
    for (const mode of [['--as', 'curl'], ['--dry-run'], ['-v']]) {
      const result = await run('-n', name, ...mode);
      expect(result.code).toBe(0);
      const shown = result.stdout + result.stderr;
      expect({ mode, leaked: clear.filter((text) => shown.includes(text)) }).toEqual({ mode, leaked: [] });
      expect(shown).toContain('•••');
    }
  });

  test('a secret host comes back lower-cased in the network error: masked there too, on the screen and in -o json', async () => {
    for (const mode of [[], ['-o', 'json']]) {
      const result = await run('-n', 'host', ...mode);
      expect(result.code).toBe(4);
      const shown = result.stdout + result.stderr;
      expect(shown).toMatch(/refused/);
      expect({ mode, leaked: clear.filter((text) => shown.includes(text)) }).toEqual({ mode, leaked: [] });
    }
  });
});
