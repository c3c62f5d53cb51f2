/**
 * A JSON syntax error in a file that holds secrets (profiles, request files, environment files)
 * says what is wrong and where, never the text around it: V8's message quotes that text, and it
 * may be part of a token.
 */
import { afterAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

const tmp = tempDir();
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const SECRET = 'sk_live_SUPERSECRET123';
afterAll(() => tmp.cleanup());

const cases: Array<[string, Record<string, string>, string[], RegExp]> = [
  ['the profiles file', { '.profiles.json': `[{"name":"default","headers":{"Authorization": Bearer ${SECRET}}}]`, 'a.http': 'GET http://127.0.0.1:1/x\n' }, ['run', 'a.http'], /\.profiles\.json:1:48: not valid JSON \(Unexpected token 'B'\)/],
  ['a JSON request file', { 'b.json': `{"method":"GET","url":"http://127.0.0.1:1/x","headers":{"Authorization": Bearer ${SECRET}}}` }, ['run', 'b.json'], /b\.json:1:74: invalid JSON: Unexpected token 'B'/],
  ['a JSON request file quoted whole', { 'c.json': `{"a": ${SECRET.slice(0, 6)}}` }, ['run', 'c.json'], /c\.json:1:7: invalid JSON: Unexpected token 's'/],
  ['an environment file', { 'http-client.env.json': `{"dev": {"token": ${SECRET}}}`, 'd.http': 'GET http://127.0.0.1:1/x\n' }, ['run', 'd.http', '--env', 'dev'], /http-client\.env\.json:1:19: not valid JSON/],
];

test.each(cases)('%s: the error names the place and quotes nothing', async (_what, files, args, expected) => {
  const dir = join(tmp.dir, _what.replace(/\W+/g, '-'));
  for (const [name, text] of Object.entries(files)) tmp.write(join(dir.slice(tmp.dir.length + 1), name), text);
  const result = await runCli(args, { cwd: dir, env });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(expected);
  expect(result.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2); // the error and its hint
  for (const piece of [SECRET, SECRET.slice(0, 6), SECRET.slice(-8), 'Bearer sk']) expect(result.stderr + result.stdout).not.toContain(piece);
});
