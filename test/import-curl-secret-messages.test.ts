/**
 * `reqflow import curl` names what it refuses or warns about without printing a credential
 * (docs/import.md: the command prints the names of secrets, never their values): a header it
 * refuses (`-H 'Bearer …'` with no name, an `Authorization` value with a line break), the URL of
 * its globbing warning (`user:pw@`, `?api_key=`), and a shell variable set before `curl`
 * (`API_KEY=… curl …`). Each printed the value.
 */
import { afterAll, expect, test } from '@jest/globals';
import { tempDir } from './helpers/cli.js';
import { runImport } from './helpers/import-fixture.js';

const SECRET = 'zq-Tok3n-98765';
const tmp = tempDir('reqflow-import-curl-secrets-');
afterAll(() => tmp.cleanup());

const cases: Array<[string, string, number, RegExp]> = [
  ['a header with no name', `curl -H 'Bearer ${SECRET}' http://127.0.0.1:9/p`, 2, /curl -H with no "Name:" \(\d+ characters, not shown/],
  ['a credential with a line break', `curl -H $'Authorization: Bearer ${SECRET}\\nX: y' http://127.0.0.1:9/p`, 2, /curl -H "Authorization: …": a header value with a line break/],
  ['a globbed URL', `curl 'http://bob:${SECRET}@127.0.0.1:9/{a,b}?api_key=${SECRET}'`, 0, /curl would expand .* in "http:\/\/bob:•••@127\.0\.0\.1:9\/\{a,b\}\?api_key=•••"/],
  ['a shell variable before curl', `API_KEY=${SECRET} curl http://127.0.0.1:9/p`, 0, /not part of a curl command, not imported: API_KEY=…/],
];

test.each(cases)('%s: named, its value never printed', async (_what, command, code, message) => {
  const result = await runImport(['curl', command, '-o', 'out', '--force'], tmp.dir);
  expect(result.stderr).toMatch(message);
  expect(result.code).toBe(code);
  expect(result.stdout + result.stderr).not.toContain(SECRET);
  expect(result.stderr).not.toMatch(/\n\s+at /);
});
