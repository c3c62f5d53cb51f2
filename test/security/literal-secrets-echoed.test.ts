/**
 * A credential written in the request file itself — under a secret-looking name in the query
 * (`?api_key=`), a form body (`client_secret=`, `password=`), a JSON body (`"password":`), or as
 * a URL's password — is masked wherever it turns up again, not only where it was written: a
 * server echoing it in its answer (the history keeps response bodies), a check's message in the
 * test reports, `--as curl`, `--dry-run`, and a k6 script. These values were masked in place
 * but not known as secrets, so their echoes were kept in clear. A real echo server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { historyFileFor } from '../helpers/history-file.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

const SECRETS = ['QUERYKEY12345', 'FORMSECRET4242', 'FORMPASS8888', 'JSONPASS7777', 'JSONNESTED9999', 'URLPASS31415'];

const tmp = tempDir('reqflow-literal-secrets-');
const stateDir = join(tmp.dir, 'state');
let server: Recorder;

const FILE = `### query
GET BASE/echo?api_key=QUERYKEY12345&page=1

### form
POST BASE/echo
Content-Type: application/x-www-form-urlencoded

grant_type=client_credentials&client_secret=FORMSECRET4242&password=FORMPASS8888

### json
POST BASE/echo
Content-Type: application/json

{"user": "ada", "password": "JSONPASS7777", "nested": {"apiKey": "JSONNESTED9999"}}

### userinfo
GET http://ada:URLPASS31415@HOSTPORT/echo

### ordinary
POST BASE/echo
Content-Type: application/json

{"keyword": "applepie", "author": "John Smith", "isAuthenticated": true}

### check
POST BASE/echo
Content-Type: application/x-www-form-urlencoded

client_secret=FORMSECRET4242

> {%
  client.test("echoed", function () { client.assert(response.status === 500, "got " + response.body); });
%}
`;

let file = '';
const run = (...args: string[]) => runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir } });
const leaked = (text: string): string[] => SECRETS.filter((secret) => text.includes(secret));

beforeAll(async () => {
  // The server answers with everything it got: the URL and the body (called once the body is in).
  server = await startRecorder((req, res) => {
    const got = server.received.at(-1);
    res.writeHead(200, { 'content-type': 'text/plain', 'x-echo-url': req.url ?? '' });
    res.end(`${req.url} ${got?.body.toString() ?? ''}`);
  });
  tmp.write('.profiles.json', '[]');
  file = tmp.write('echo.http', FILE.replaceAll('BASE', server.url).replaceAll('HOSTPORT', server.url.slice('http://'.length)));
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

describe('credentials written in the file', () => {
  test('their echoes are masked in the history; the server did get them', async () => {
    for (const name of ['query', 'form', 'json', 'userinfo']) expect((await run('run', file, '-n', name, '-o', 'raw')).code).toBe(0);
    const history = readFileSync(historyFileFor(stateDir, tmp.dir), 'utf8');
    expect(history).toContain('•••');
    expect(leaked(history)).toEqual([]);
    expect(history).toContain('grant_type=client_credentials'); // the rest is kept
    const sent = server.received.map((r) => `${r.url} ${r.headers.authorization ?? ''} ${r.body.toString()}`).join('\n');
    expect(leaked(sent).length).toBe(5); // the URL's password went as Basic credentials
  });

  test('ordinary values under names that merely hold "key" or "auth" (keyword, author) are not made secrets', async () => {
    expect((await run('run', file, '-n', 'ordinary', '-o', 'raw')).code).toBe(0);
    const history = readFileSync(historyFileFor(stateDir, tmp.dir), 'utf8');
    // The echo is text, not JSON: only a value made a secret would be masked in it.
    expect(history).toContain('applepie');
    expect(history).toContain('John Smith');
  });

  test('--as curl and --dry-run show none of them', async () => {
    for (const name of ['query', 'form', 'json', 'userinfo']) {
      for (const mode of [['--as', 'curl'], ['--dry-run']]) {
        const result = await run('run', file, '-n', name, ...mode);
        expect({ name, mode, code: result.code, leaked: leaked(result.stdout + result.stderr) }).toEqual({ name, mode, code: 0, leaked: [] });
      }
    }
  });

  test('a failing check that quotes the echo: its message is masked on the screen and in every report', async () => {
    const junit = join(tmp.dir, 'junit.xml');
    const tap = join(tmp.dir, 'report.tap');
    const result = await run('test', file, '--grep', '^check$', '--report', `junit=${junit}`, '--report', `tap=${tap}`);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('client_secret=•••');
    expect(leaked(result.stdout + result.stderr)).toEqual([]);
    expect(leaked(readFileSync(junit, 'utf8') + readFileSync(tap, 'utf8'))).toEqual([]);
  });

  test('a k6 script takes them from the environment, never as text', async () => {
    for (const name of ['form', 'json', 'userinfo']) {
      const result = await run('stress', file, '-n', name, '--as', 'k6');
      expect(result.code).toBe(0);
      expect({ name, leaked: leaked(result.stdout) }).toEqual({ name, leaked: [] });
      expect(result.stdout).toContain('__ENV.');
    }
  });
});
