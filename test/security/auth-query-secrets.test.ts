/**
 * A query parameter an auth method adds is a credential whatever its name, as its headers are:
 * `# @auth custom`'s `"query": {"sig": …}` and an API key sent `"in": "query"` under a plain
 * name. Masking them by name only left `?sig=…` in clear in every output. A hostile server
 * echoes the signature back — in a redirect's Location under another name, and in an error body
 * — and every output form is searched for the value in each form it can take (as sent
 * percent-encoded, decoded, form-encoded, lower-case hex).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

const SIG = 'k/7+x y=5f2c9a0e'; // needs percent-encoding in a query
const STAMP = '1700000000';
const IDENT = 'ident-0a1b2c3d';
const forms = (value: string): string[] => [value, encodeURIComponent(value), new URLSearchParams([['', value]]).toString().slice(1), encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())];
const LEAKS = [...forms(SIG), STAMP, IDENT];

let other: Recorder; // another origin the redirect leads to
let api: Recorder; // echoes what it was sent
let silent: Server; // accepts and never answers: the --max-time error names the URL
let silentUrl = '';
const sockets: Socket[] = [];
const tmp = tempDir('reqflow-auth-query-');
const state = `${tmp.dir}/state`;

beforeAll(async () => {
  other = await startRecorder();
  api = await startRecorder((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const raw = /[?&]sig=([^&]*)/.exec(req.url ?? '')?.[1] ?? '';
    if (url.pathname === '/echo') return void res.writeHead(302, { Location: `${other.url}/landing?ref=${raw}` }).end();
    res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'bad signature', got: url.searchParams.get('sig'), key: url.searchParams.get('k') }));
  });
  silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all([other.close(), api.close(), new Promise((resolve) => silent.close(resolve))]);
  tmp.cleanup();
});

const profiles = tmp.write('profiles.json', JSON.stringify([
  { name: 'signed', variables: { hmac: SIG, stamp: STAMP }, auth: { type: 'custom', query: { sig: '{{hmac}}', ts: '{{stamp}}' } } },
  { name: 'keyed', variables: { ident: IDENT }, auth: { type: 'apikey', in: 'query', name: 'k', value: '{{ident}}' } },
]));

const reqflow = (file: string, profile: string, ...args: string[]): Promise<CliResult> => runCli(['run', file, '--profiles', profiles, '-p', profile, ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: state } });

function expectNoLeak(result: CliResult, what: string): void {
  for (const leak of LEAKS) expect({ what, leaked: (result.stdout + result.stderr).includes(leak) ? leak : undefined }).toEqual({ what, leaked: undefined });
}

test('every output form masks the value of a parameter # @auth custom adds, whatever its name, and the value where the server echoes it', async () => {
  const body = tmp.write('body.http', `GET ${api.url}/body?page=visible-2\n`);
  const echo = tmp.write('echo.http', `GET ${api.url}/echo\n`);
  const slow = tmp.write('slow.http', `GET ${silentUrl}/slow\n`);
  const refused = tmp.write('refused.http', 'GET http://127.0.0.1:1/refused\n');
  api.received.length = 0;
  const verbose = await reqflow(body, 'signed', '-v');
  expect(verbose.code).toBe(1); // the 401
  // What was sent is what the profile says: the real value, percent-encoded.
  expect(api.received[0]?.url).toBe(`/body?page=visible-2&sig=${encodeURIComponent(SIG)}&ts=${STAMP}`);
  expect(verbose.stderr + verbose.stdout).toContain(`/body?page=visible-2&sig=•••&ts=•••`);
  const outputs: Array<[string, CliResult]> = [
    ['-v', verbose],
    ['--dry-run', await reqflow(body, 'signed', '--dry-run')],
    ['--as http', await reqflow(body, 'signed', '--as', 'http')],
    ['--as curl', await reqflow(body, 'signed', '--as', 'curl')],
    ['-o json', await reqflow(body, 'signed', '-o', 'json', '-v')],
    ['-L -v (a Location quoting it)', await reqflow(echo, 'signed', '-L', '-v')],
    ['an error record', await reqflow(refused, 'signed', '-o', 'json')],
    ['the --max-time error', await reqflow(slow, 'signed', '--max-time', '300')],
  ];
  for (const [what, result] of outputs) {
    // The body a server sends is shown as it came (security.md): the -v and -o json runs of /body quote it.
    const shown = what === '-v' || what === '-o json' ? { ...result, stdout: result.stdout.replace(/"got": ?"[^"]*"/, '') } : result;
    expectNoLeak(shown, what);
  }
  expect(outputs[5]?.[1].stderr).toMatch(/reqflow: redirected to http:\/\/127\.0\.0\.1:\d+\/landing\?ref=•••/);
  expect(outputs[6]?.[1].stdout).toContain('/refused?sig=•••&ts=•••');
  expect(outputs[7]?.[1].stderr).toContain('/slow?sig=•••&ts=••• took longer than --max-time');
  // The request's own parameter is judged by its name, as before.
  expect(outputs[1]?.[1].stdout).toContain('page=visible-2');
  // The history: URLs, and the response bodies quoting the signature.
  const files = readdirSync(`${state}/history`, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  expect(files.length).toBeGreaterThan(0);
  const history = files.map((entry) => readFileSync(`${entry.parentPath}/${entry.name}`, 'utf8')).join('\n');
  expect(history).toContain('sig=•••');
  for (const leak of LEAKS) expect(history).not.toContain(leak);
});

test('an API key sent in the query under a plain name (`k`) is masked as the header would be', async () => {
  const body = tmp.write('key.http', `GET ${api.url}/key\n`);
  api.received.length = 0;
  for (const args of [['-v'], ['--dry-run'], ['--as', 'curl'], ['-o', 'json']]) {
    const result = await reqflow(body, 'keyed', ...args);
    expect(result.stdout + result.stderr).toContain('/key?k=•••');
    expectNoLeak(args[0] === '-v' || args[0] === '-o' ? { ...result, stdout: result.stdout.replace(/"key": ?"[^"]*"/, '') } : result, args.join(' '));
  }
  expect(api.received.map((r) => r.url)).toEqual([`/key?k=${IDENT}`, `/key?k=${IDENT}`]);
});
