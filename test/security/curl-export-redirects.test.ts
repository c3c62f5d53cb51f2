/**
 * `--as curl` with `-L` never prints a command less safe than reqflow. A hostile server redirects
 * to another origin (another port of 127.0.0.1: an origin change for reqflow, and for curl since
 * 7.83.0) and a second server records what reaches it. reqflow sends no credential there; curl's
 * `-L` sends every `-H` header and presents `--cert` there, keeping back only `Authorization` and
 * `Cookie`. So the printed command keeps `-L` with those two — run by the real curl, the other
 * origin gets neither — and a request holding any other credential (an auth method's header
 * whatever its name, a secret-named or secret-holding header, a client certificate) is refused,
 * exit 2 naming its line, masked or not.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { makeCerts, type TestCerts } from '../helpers/certs.js';
import { runCli, runShell, tempDir, type CliResult } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';
import { missingPrograms, needs } from '../helpers/system-programs.js';

const curlTest = needs(['curl'], 'the command run by the real curl').test;
const hasOpenssl = missingPrograms(['openssl'], 'the client-certificate export test').length === 0;
const tlsTest = hasOpenssl ? test : test.skip;

let target: Recorder; // the other origin: records what reaches it
let origin: Recorder; // redirects every request there
const tmp = tempDir('reqflow-curl-redirect-');
const state = `${tmp.dir}/state`;

beforeAll(async () => {
  target = await startRecorder();
  origin = await startRecorder((_req, res) => void res.writeHead(302, { Location: `${target.url}/landing` }).end());
});
afterAll(async () => {
  await Promise.all([target.close(), origin.close()]);
  tmp.cleanup();
});

const profiles = tmp.write('profiles.json', JSON.stringify([
  { name: 'keyed', variables: { clientIdent: 'ident-0a1b2c3d' }, auth: { type: 'apikey', header: 'X-Client-Ident', variable: 'clientIdent' } },
  { name: 'signed', variables: { proof: 'hmac-5f2c9a0e77d1' }, auth: { type: 'custom', headers: { 'X-Proof': '{{proof}}', 'X-Timestamp': '1700000000' } } },
  { name: 'bearer', variables: { token: 'tok-bearer-7f3e9a' }, auth: { type: 'bearer' } },
  { name: 'plain' },
]));

const reqflow = (args: string[]): Promise<CliResult> => runCli([...args, '--profiles', profiles], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: state } });
const sh = (script: string): Promise<CliResult> => runShell('/bin/sh', script, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });

const SECRETS = ['ident-0a1b2c3d', 'hmac-5f2c9a0e77d1', '1700000000', 'key-1234567890', 'relay-secret-42', 'proxy-cred-55'];

/** Each case: a request file, the profile, and the credentials curl would hand on. */
const cases: Array<{ label: string; file: string; text: string; profile: string; extra?: string[]; named: RegExp }> = [
  { label: 'an API key the apikey method sets under a plain name', file: 'keyed.http', text: 'GET {{base}}/keyed\nX-Plain: visible\n', profile: 'keyed', named: /curl would send X-Client-Ident of "request-1" to any host a redirect names/ },
  { label: "# @auth custom's headers", file: 'signed.http', text: 'GET {{base}}/signed\n', profile: 'signed', named: /curl would send X-Proof and X-Timestamp of "request-1"/ },
  { label: 'a secret-named header the file writes', file: 'written.http', text: 'GET {{base}}/written\nX-Api-Key: key-1234567890\n', profile: 'plain', named: /curl would send X-Api-Key of/ },
  { label: 'a header holding a secret variable, beside Authorization', file: 'relay.http', text: 'GET {{base}}/relay\nAuthorization: Bearer {{apiSecret}}\nX-Relay: {{apiSecret}}\n', profile: 'plain', extra: ['-e', 'apiSecret=relay-secret-42'], named: /curl would send X-Relay of/ },
  { label: 'a Proxy-Authorization the file writes', file: 'proxy.http', text: 'GET {{base}}/proxy\nProxy-Authorization: Basic proxy-cred-55\n', profile: 'plain', named: /curl would send Proxy-Authorization of/ },
];

test.each(cases)('$label: reqflow -L hands none of it on; --as curl -L is refused naming the line, masked or shown; without -L it prints', async ({ file, text, profile, extra = [], named }) => {
  const path = tmp.write(file, text);
  const args = ['run', path, '-p', profile, '-e', `base=${origin.url}`, ...extra];
  // The attacker's record of reqflow itself: the other origin got no credential.
  target.received.length = 0;
  expect((await reqflow([...args, '-L'])).code).toBe(0);
  expect(target.received).toHaveLength(1);
  for (const secret of SECRETS) expect(JSON.stringify(target.received[0]?.headers)).not.toContain(secret);
  origin.received.length = 0;
  target.received.length = 0;
  for (const shown of [[], ['--show-secrets']]) {
    const refused = await reqflow([...args, '-L', '--as', 'curl', ...shown]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(new RegExp(`^reqflow: ${file.replace('.', '\\.')}:1: --as curl with -L: `));
    expect(refused.stderr).toMatch(named);
    expect(refused.stderr).toMatch(/\nhint: leave out -L \(or give the request # @no-redirect\) to print it/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(2);
    for (const secret of SECRETS) expect(refused.stderr).not.toContain(secret);
  }
  const printed = await reqflow([...args, '--as', 'curl']);
  expect(printed.code).toBe(0);
  expect(printed.stdout).not.toContain('-L');
  expect(origin.received.length + target.received.length).toBe(0); // printing sends nothing
});

test('# @no-redirect on the request prints it with -L given; in a file of several, the refused request is a line and the others are printed', async () => {
  const path = tmp.write('several.http', `### open\nGET ${origin.url}/open\n\n### keyed\nGET ${origin.url}/keyed\nX-Api-Key: key-1234567890\n\n### kept\n# @no-redirect\nGET ${origin.url}/kept\nX-Api-Key: key-1234567890\n`);
  const result = await reqflow(['run', path, '-p', 'plain', '-L', '--as', 'curl', '--show-secrets']);
  expect(result.code).toBe(2);
  expect(result.stdout).toContain(`# open\ncurl '${origin.url}/open' \\\n  -L --max-redirs 10`);
  expect(result.stdout).not.toContain('# keyed');
  expect(result.stdout).toContain(`# kept\ncurl '${origin.url}/kept' \\\n  -H 'X-Api-Key: key-1234567890'`);
  expect(result.stderr).toMatch(/^reqflow: several\.http:5: --as curl with -L: curl would send X-Api-Key of "keyed"/);
});

test('reqflow send --as curl -L with a key in -H is refused alike', async () => {
  const result = await reqflow(['send', `${origin.url}/send`, '-p', 'plain', '-H', 'X-Api-Key: key-1234567890', '-L', '--as', 'curl', '--show-secrets']);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/--as curl with -L: curl would send X-Api-Key of "request-1"/);
  expect(result.stdout + result.stderr).not.toContain('key-1234567890');
});

curlTest('Authorization and Cookie keep -L: run by curl, the command sends them to the origin and not to the other one, as reqflow does', async () => {
  const path = tmp.write('bearer.http', `GET ${origin.url}/bearer\nCookie: sid=cookie-9f8e7d\nX-Plain: visible\n`);
  const printed = await reqflow(['run', path, '-p', 'bearer', '-L', '--as', 'curl', '--show-secrets']);
  expect(printed.code).toBe(0);
  expect(printed.stdout).toContain('  -L --max-redirs 10');
  expect(printed.stdout).toContain("-H 'Authorization: Bearer tok-bearer-7f3e9a'");
  origin.received.length = 0;
  target.received.length = 0;
  const curl = await sh(printed.stdout);
  expect(curl.code).toBe(0);
  expect(origin.received[0]?.headers).toMatchObject({ authorization: 'Bearer tok-bearer-7f3e9a', cookie: 'sid=cookie-9f8e7d' });
  expect(target.received).toHaveLength(1);
  expect(target.received[0]?.headers['x-plain']).toBe('visible');
  expect(target.received[0]?.headers.authorization).toBeUndefined();
  expect(target.received[0]?.headers.cookie).toBeUndefined();
});

tlsTest('a client certificate: reqflow -L does not present it to the other origin; --as curl -L is refused (curl would)', async () => {
  const certs: TestCerts = makeCerts();
  const clients: Array<string | null> = [];
  const listen = async (handler: Parameters<typeof createHttpsServer>[1]): Promise<{ server: HttpsServer; url: string }> => {
    // Asks every client for a certificate and records whose came, without requiring one.
    const server = createHttpsServer({ cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key), ca: readFileSync(certs.ca.cert), requestCert: true, rejectUnauthorized: false }, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const other = await listen((req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    clients.push(typeof peer?.subject?.CN === 'string' ? peer.subject.CN : null);
    res.end('landed');
  });
  const first = await listen((_req, res) => void res.writeHead(302, { Location: `${other.url}/landing` }).end());
  try {
    const path = tmp.write('mtls.http', `# @tls.certFile ${certs.client.cert}\n# @tls.keyFile ${certs.client.key}\n# @tls.caFile ${certs.ca.cert}\nGET ${first.url}/me\n`);
    expect((await reqflow(['run', path, '-p', 'plain', '-L'])).code).toBe(0);
    expect(clients).toEqual([null]);
    const refused = await reqflow(['run', path, '-p', 'plain', '-L', '--as', 'curl', '--show-secrets']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^reqflow: mtls\.http:4: --as curl with -L: curl would send the client certificate of "request-1" to any host a redirect names/);
    const printed = await reqflow(['run', path, '-p', 'plain', '--as', 'curl']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`--cert '${certs.client.cert}'`);
  } finally {
    for (const { server } of [first, other]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    certs.cleanup();
  }
});
