/**
 * `--dry-run` and `--as curl|http`: each request printed exactly as it would go out — after
 * variables, pre-request scripts and auth; secrets masked unless --show-secrets — and nothing
 * sent. The curl command, run by the real curl, sends what reqflow sends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { ROOT, runCli, runShell, tempDir, type CliResult } from './helpers/cli.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';
import { sessionFileFor } from './helpers/session-file.js';
import { startTlsServer, type TlsServer } from './servers/tls-server.js';
import { missingPrograms, needs } from './helpers/system-programs.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const withCurl = needs(['curl'], 'the round trips through the real curl');
// The client-certificate tests need openssl (helpers/certs.ts makes the certificates); the others run without it.
const hasOpenssl = missingPrograms(['openssl'], 'the client-certificate tests').length === 0;
const tlsTest = hasOpenssl ? test : test.skip;

let server: Recorder;
let certs: TestCerts;
let mtls: TlsServer;
const tmp = tempDir('reqflow-export-');
const stateDir = join(tmp.dir, 'state');

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    if (req.url === '/login') {
      res.setHeader('Set-Cookie', 'sid=cookie-value-31337; Path=/');
      res.setHeader('Content-Type', 'application/json');
      res.end('{"ok": true}');
    } else res.end('ok');
  });
  if (!hasOpenssl) return;
  certs = makeCerts();
  mtls = await startTlsServer({ cert: certs.server.cert, key: certs.server.key, clientCa: certs.ca.cert });
});
afterAll(async () => {
  await Promise.all([server.close(), mtls?.close()]);
  certs?.cleanup();
  tmp.cleanup();
});
beforeEach(() => {
  server.received.length = 0;
  writeFileSync(join(tmp.dir, '.profiles.json'), JSON.stringify([{ name: 'default', variables: { baseUrl: server.url } }]));
});

function reqflow(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  return runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir, ...options.env }, ...(options.input !== undefined ? { input: options.input } : {}) });
}

/** Runs a printed command with /bin/sh in the test folder, as a user pasting it would. */
function sh(command: string): Promise<CliResult> {
  return runShell('/bin/sh', command, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}

/** What arrived, as a server sees it; `Connection` says how the client keeps its socket, not what it asked. */
function wire(request: Recorded | undefined): { method: string; url: string; headers: IncomingHttpHeaders; body: string } {
  if (!request) throw new Error('nothing arrived');
  const { connection: _connection, ...headers } = request.headers;
  return { method: request.method, url: request.url, headers, body: request.body.toString('latin1') };
}

/** Sends with reqflow, then runs the printed curl command: both must arrive the same. */
async function roundTrip(args: string[]): Promise<{ command: string; sent: ReturnType<typeof wire>; curled: ReturnType<typeof wire> }> {
  server.received.length = 0;
  expect((await reqflow(args)).code).toBe(0);
  const printed = await reqflow([...args, '--as', 'curl', '--show-secrets']);
  expect(printed.code).toBe(0);
  expect(server.received).toHaveLength(1); // printing sent nothing
  const curl = await sh(printed.stdout);
  // stderr holds curl's progress meter (its output is a pipe), and an error would say `curl: (N)`.
  expect({ code: curl.code, error: /curl: \(\d+\).*/.exec(curl.stderr)?.[0] }).toEqual({ code: 0, error: undefined });
  return { command: printed.stdout, sent: wire(server.received[0]), curled: wire(server.received[1]) };
}

withCurl.describe('the curl command sends what reqflow sends', () => {
  test('a POST with headers, basic auth and a JSON body holding a quote', async () => {
    const { command, sent, curled } = await roundTrip(['send', 'POST', `${server.url}/users?team=a%20b`, '-H', "X-Note: it's here", '-H', 'X-Twice: 1', '-H', 'X-Twice: 2', '-u', 'alice:pw-s3cret', '--json', `{"name": "Ada", "note": "it's {{who}}"}`, '-e', 'who=me']);
    expect(curled).toEqual(sent);
    expect(sent.body).toBe(`{"name": "Ada", "note": "it's me"}`);
    expect(command).toContain(`'X-Note: it'\\''s here'`);
  });

  test.each([
    ['dot segments, as written', '/./x/%2e%2E/y', '--path-as-is'],
    ['brackets and braces, not globs', '/q?b=[1]&c={x}', '-g'],
    ['quotes, a bad escape and ..', `/p%zz/{a}/a/../c?d="<>'`, '-g'],
    ['an empty query', '/a?', '-H'],
  ])('a target curl would rewrite (%s): the command keeps it as reqflow sends it', async (_label, target, flag) => {
    const { command, sent, curled } = await roundTrip(['send', `${server.url}${target}`]);
    expect(sent.url).toBe(target);
    expect(curled).toEqual(sent);
    expect(command).toContain(`  ${flag}`);
  });

  test('a multipart body with a binary file, and a body of a file (named, never copied)', async () => {
    writeFileSync(join(tmp.dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x25, 0x5c, 0x27, 0x0d, 0x0a]));
    writeFileSync(join(tmp.dir, 'upload.http'), `POST ${server.url}/upload\nContent-Type: multipart/form-data; boundary=XyZ\n\n--XyZ\nContent-Disposition: form-data; name="title"\n\n100% it's\n--XyZ\nContent-Disposition: form-data; name="logo"; filename="logo.png"\nContent-Type: image/png\n\n< ./logo.png\n--XyZ--\n`);
    const multipart = await roundTrip(['run', 'upload.http']);
    expect(multipart.curled).toEqual(multipart.sent);
    expect(multipart.command).toContain(`cat '${join(tmp.dir, 'logo.png')}'`);
    const file = await roundTrip(['send', 'PUT', `${server.url}/blob`, '-d', '@logo.png']);
    expect(file.curled).toEqual(file.sent);
    expect(file.command).toContain(`--data-binary '@${join(tmp.dir, 'logo.png')}'`);
  });

  test('a body that is not plain text goes through printf; a GET, a bodiless PUT, a body starting with @', async () => {
    writeFileSync(join(tmp.dir, 'at.http'), `POST ${server.url}/at\nContent-Type: text/plain\n\n@handle says hi\n`);
    for (const args of [
      ['send', 'POST', `${server.url}/ctl`, '-d', 'tab\there\u0001 100% \\n back\\slash é'],
      ['send', `${server.url}/plain`],
      ['send', 'PUT', `${server.url}/empty`],
      ['run', 'at.http'],
    ]) {
      const { sent, curled } = await roundTrip(args);
      expect({ args, curled }).toEqual({ args, curled: sent });
    }
  });

  tlsTest('mutual TLS: the client certificate, key and CA', async () => {
    mkdirSync(join(tmp.dir, 'tls'), { recursive: true });
    writeFileSync(join(tmp.dir, 'tls.http'), `# @tls.certFile ${certs.client.cert}\n# @tls.keyFile ${certs.client.key}\n# @tls.caFile ${certs.ca.cert}\nGET ${mtls.url}/me\n`);
    const printed = await reqflow(['run', 'tls.http', '--as', 'curl']);
    expect(printed.stdout).toContain(`--cert '${certs.client.cert}'`);
    expect(printed.stdout).toContain(`--key '${certs.client.key}'`);
    expect(printed.stdout).toContain(`--cacert '${certs.ca.cert}'`);
    const curl = await sh(printed.stdout);
    expect(JSON.parse(curl.stdout)).toEqual({ client: 'reqflow test client', authorized: true });
  });
});

describe('--as curl: the command line', () => {
  const ua = `  -H 'User-Agent: reqflow/${VERSION}' \\\n  -H 'Accept: */*'`;

  test('a GET: the URL and the headers reqflow sends, curl\'s own replaced', async () => {
    const result = await reqflow(['send', `${server.url}/users`, '--as', 'curl']);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: `# request-1\ncurl '${server.url}/users' \\\n${ua}\n\n` });
    expect(server.received).toEqual([]);
  });

  test('a POST of text: --data-binary, and no form Content-Type curl would add', async () => {
    const result = await reqflow(['send', `${server.url}/notes`, '-d', 'a=1', '-H', 'Content-Type: text/plain', '--as', 'curl']);
    expect(result.stdout).toBe(`# request-1\ncurl '${server.url}/notes' \\\n  -H 'Content-Type: text/plain' \\\n${ua} \\\n  --data-binary 'a=1'\n\n`);
    writeFileSync(join(tmp.dir, 'raw.http'), `PATCH ${server.url}/raw\n\nno type\n`);
    const untyped = await reqflow(['run', 'raw.http', '--as', 'curl']);
    expect(untyped.stdout).toBe(`# request-1\ncurl '${server.url}/raw' \\\n  -X 'PATCH' \\\n${ua} \\\n  -H 'Content-Type:' \\\n  --data-binary 'no type'\n\n`);
  });

  test('a multipart form with a file: printf and cat piped to curl', async () => {
    writeFileSync(join(tmp.dir, 'a.bin'), Buffer.from([0, 1, 2]));
    const result = await reqflow(['send', `${server.url}/up`, '--form', 'f=@a.bin', '--as', 'curl']);
    const boundary = /boundary=(reqflow-\w+)/.exec(result.stdout)?.[1] ?? 'none';
    const head = `--${boundary}\\r\\nContent-Disposition: form-data; name="f"; filename="a.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n`;
    // printf's format starts with \055, not `-`: printf would take `--…` for an option.
    expect(result.stdout).toBe(
      `# request-1\n{ printf '\\055${head.slice(1)}'; cat '${join(tmp.dir, 'a.bin')}'; printf '\\r\\n--${boundary}--\\r\\n'; } | curl '${server.url}/up' \\\n  -H 'Content-Type: multipart/form-data; boundary=${boundary}' \\\n${ua} \\\n  --data-binary @-\n\n`,
    );
  });

  tlsTest('secrets masked: auth, cookies, a key passphrase, proxy credentials; --show-secrets shows them', async () => {
    // A login leaves a cookie in the profile's jar: the next request carries it.
    expect((await reqflow(['send', 'POST', `${server.url}/login`])).code).toBe(0);
    writeFileSync(join(tmp.dir, 'secret.http'), `# @tls.certFile ${certs.client.cert}\n# @tls.keyFile ${certs.encryptedClientKey}\n# @tls.passphrase {{keyPass}}\nGET ${server.url}/me\nAuthorization: Bearer {{token}}\n`);
    const args = ['run', 'secret.http', '-e', 'token=tok-abc-123', '-e', `keyPass=${certs.passphrase}`, '-x', 'http://proxyuser:proxy-pw-9@127.0.0.1:3128', '--as', 'curl'];
    const masked = await reqflow(args);
    expect(masked.code).toBe(0);
    expect(masked.stdout).toContain("-H 'Authorization: •••'");
    expect(masked.stdout).toContain("-H 'Cookie: •••'");
    expect(masked.stdout).toContain("--pass '•••'");
    expect(masked.stdout).toContain("-x 'http://proxyuser:•••@127.0.0.1:3128/'");
    for (const secret of ['tok-abc-123', certs.passphrase, 'proxy-pw-9', 'cookie-value-31337']) expect(masked.stdout).not.toContain(secret);
    const shown = await reqflow([...args, '--show-secrets']);
    expect(shown.stdout).toContain("-H 'Authorization: Bearer tok-abc-123'");
    expect(shown.stdout).toContain("-H 'Cookie: sid=cookie-value-31337'");
    expect(shown.stdout).toContain(`--pass '${certs.passphrase}'`);
    expect(shown.stdout).toContain("-x 'http://proxyuser:proxy-pw-9@127.0.0.1:3128/'");
    expect(server.received.map((r) => r.url)).toEqual(['/login']);
  });

  test('how it goes: HTTP version, -k, -L, --max-time, --compressed, a proxy from the environment', async () => {
    const flags = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> => (await reqflow([...args, '--as', 'curl'], { env })).stdout.split('\n').slice(2).join('\n');
    expect(await flags(['send', `${server.url}/h2`, '--http2'])).toContain('--http2-prior-knowledge');
    writeFileSync(join(tmp.dir, 'v.http'), '### two\nGET https://example.com/ HTTP/2\n\n### one\nGET https://example.com/ HTTP/1.1\n\n### plain\nGET https://example.com/\n');
    const versions = (await reqflow(['run', 'v.http', '--as', 'curl'])).stdout;
    expect(versions).toMatch(/# two\ncurl 'https:\/\/example\.com\/' \\\n {2}--http2 \\/);
    expect(versions).toMatch(/# one\ncurl 'https:\/\/example\.com\/' \\\n {2}--http1\.1 \\/);
    expect(versions).toMatch(/# plain\ncurl 'https:\/\/example\.com\/' \\\n {2}--http1\.1 \\/);
    const how = await flags(['send', 'https://example.com/x', '-k', '-L', '--max-time', '2500', '-H', 'Accept-Encoding: gzip, br']);
    expect(how).toContain('  -L --max-redirs 10 \\\n  -m 2.5 \\\n  -k \\\n  --compressed \\\n');
    expect(await flags(['send', `${server.url}/socks`, '-x', 'socks5h://127.0.0.1:1080'])).toContain("-x 'socks5h://127.0.0.1:1080'");
    // reqflow goes direct (no_proxy), where curl would take https_proxy: it is told not to.
    expect(await flags(['send', `${server.url}/direct`], { http_proxy: 'http://127.0.0.1:3128', no_proxy: '127.0.0.1' })).toContain("--noproxy '*'");
    expect(await flags(['send', `${server.url}/via`], { http_proxy: 'http://127.0.0.1:3128' })).toContain("-x 'http://127.0.0.1:3128/'");
  });

  test('a URL that could not be sent is exit 2, as sending it would be', async () => {
    writeFileSync(join(tmp.dir, 'bad.http'), 'GET ftp://example.com/x\n');
    const result = await reqflow(['run', 'bad.http', '--as', 'curl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unsupported URL scheme "ftp"/);
  });
});

describe('--as http and --dry-run', () => {
  test('a binary file is written as its include; piped back into reqflow run -, it sends the same bytes', async () => {
    writeFileSync(join(tmp.dir, 'pic.bin'), Buffer.from([0xff, 0x00, 0xfe, 0x0a]));
    const args = ['send', `${server.url}/up`, '--form', 'note=hi {{who}}', '--form', 'pic=@pic.bin;type=image/x-test', '-e', 'who=ada'];
    // Shown, since it runs: a masked value (the jar's Cookie: •••) would be refused, never sent.
    const printed = await reqflow([...args, '--as', 'http', '--show-secrets']);
    expect(printed.stdout).toMatch(new RegExp(`\\n\\n--reqflow-\\w+\\nContent-Disposition: form-data; name="note"\\n\\nhi ada\\n--reqflow-\\w+\\nContent-Disposition: form-data; name="pic"; filename="pic.bin"\\nContent-Type: image/x-test\\n\\n< ${join(tmp.dir, 'pic.bin')}\\n--reqflow-\\w+--\\n\\n$`));
    const replayed = await reqflow(['run', '-'], { input: printed.stdout });
    expect({ code: replayed.code, stderr: replayed.stderr.replace(/ {2}\d+ ms\n$/, '') }).toEqual({ code: 0, stderr: 'HTTP/1.1 200 OK' });
    const [again] = server.received;
    const boundary = /boundary=(\S+)/.exec(again?.headers['content-type'] ?? '')?.[1] ?? '';
    expect(again?.body).toEqual(Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi ada\r\n--${boundary}\r\nContent-Disposition: form-data; name="pic"; filename="pic.bin"\r\nContent-Type: image/x-test\r\n\r\n`), Buffer.from([0xff, 0x00, 0xfe, 0x0a]), Buffer.from(`\r\n--${boundary}--`)]));
  });

  test('pre-request scripts and auth run; a # @note does not stop a dry run; the session token masked unless shown', async () => {
    const session = sessionFileFor(stateDir, tmp.dir);
    mkdirSync(dirname(session), { recursive: true });
    writeFileSync(session, JSON.stringify({ version: 1, variables: { token: 'tok-session-555' }, data: {} }), { mode: 0o600 });
    writeFileSync(join(tmp.dir, 'scripted.http'), `### me\n# @auth bearer\n# @note are you sure?\n< {% request.variables.set('trace', 'tr-' + (6 * 7)); %}\nGET {{baseUrl}}/me\nX-Trace: {{trace}}\n`);
    const masked = await reqflow(['run', 'scripted.http', '--dry-run']);
    expect(masked).toMatchObject({ code: 0, stderr: '', stdout: `### me\nGET ${server.url}/me\nX-Trace: tr-42\nAuthorization: •••\n\n` });
    const shown = await reqflow(['run', 'scripted.http', '--dry-run', '--show-secrets']);
    expect(shown.stdout).toContain('Authorization: Bearer tok-session-555\n');
    expect(server.received).toEqual([]);
  });

  test('into a pipe, a body\'s control characters are written as they are, so the saved block sends the same bytes (made visible only on a terminal)', async () => {
    writeFileSync(join(tmp.dir, 'controls.http'), `POST ${server.url}/c\nContent-Type: text/plain\n\nclear \u001b[2J and \u009b here\n`);
    const printed = await reqflow(['run', 'controls.http', '--as', 'http']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('clear \u001b[2J and \u009b here');
    const replayed = await reqflow(['run', '-'], { input: printed.stdout });
    expect(replayed.code).toBe(0);
    expect(server.received.at(-1)?.body.toString('utf8')).toBe('clear \u001b[2J and \u009b here');
  });

  test('a body a .http block cannot hold as text (###, < file, {{…}} lines) is refused by --as http, never saved to send something else', async () => {
    for (const body of ['a\n\n### x\nPOST http://127.0.0.1:1/INJECT\n\nzzz', '< /etc/hostname']) {
      const result = await reqflow(['send', 'POST', `${server.url}/h`, '-d', body, '--as', 'http']);
      expect({ body, code: result.code }).toEqual({ body, code: 2 });
      expect(result.stderr).toMatch(/--as http: the body of "[^"]+" holds a line a \.http file reads as syntax, not text/);
      expect(result.stdout).toBe('');
    }
    // --as curl holds it byte for byte.
    const curl = await reqflow(['send', 'POST', `${server.url}/h`, '-d', '< /etc/hostname', '--as', 'curl']);
    expect(curl.code).toBe(0);
    expect(server.received).toEqual([]);
  });

  test('a multipart file part whose lines end in LF alone is written as its include, so the saved block sends the same bytes; inline text with one is refused', async () => {
    writeFileSync(join(tmp.dir, 'lf.txt'), 'hello file\nline2\n');
    writeFileSync(join(tmp.dir, 'upload.http'), `### upload\nPOST {{baseUrl}}/upload\nContent-Type: multipart/form-data; boundary=XB\n\n--XB\nContent-Disposition: form-data; name="title"\n\nQ3\n--XB\nContent-Disposition: form-data; name="file"; filename="lf.txt"\nContent-Type: text/plain\n\n< ./lf.txt\n--XB--\n`);
    expect((await reqflow(['run', 'upload.http'])).code).toBe(0);
    const sent = server.received.at(-1)?.body;
    expect(sent?.toString()).toContain('text/plain\r\n\r\nhello file\nline2\n\r\n--XB--');
    const printed = await reqflow(['run', 'upload.http', '--as', 'http']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`\n< ${join(tmp.dir, 'lf.txt')}\n--XB--\n`);
    expect((await reqflow(['run', '-'], { input: printed.stdout })).code).toBe(0);
    expect(server.received.at(-1)?.body).toEqual(sent);
    writeFileSync(join(tmp.dir, 'inline.yaml'), `method: POST\nurl: "{{baseUrl}}/u"\nheaders:\n  Content-Type: multipart/form-data; boundary=B\nbody: "--B\\nContent-Disposition: form-data; name=\\"a\\"\\n\\nx\\n--B--\\n"\n`);
    const before = server.received.length;
    const inline = await reqflow(['run', 'inline.yaml', '--as', 'http']);
    expect(inline.code).toBe(2);
    expect(inline.stderr).toContain('--as http: the multipart body of "request-1" has a line ending in a line feed alone, which a .http block reads back as CRLF');
    expect(inline.stdout).toBe('');
    expect(server.received.length).toBe(before);
  });

  test('--show-secrets alone is refused: it only prints', async () => {
    const result = await reqflow(['send', `${server.url}/x`, '--show-secrets']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('reqflow: --show-secrets goes with --dry-run or --as\nhint: it prints the requests with their secrets instead of sending them\n');
    expect(server.received).toEqual([]);
  });

  test('reqflow test --dry-run and --as curl print every request and send none', async () => {
    mkdirSync(join(tmp.dir, 'suite'), { recursive: true });
    writeFileSync(join(tmp.dir, 'suite', 'a.http'), `### a\nGET ${server.url}/a\n\n?? status == 200\n`);
    writeFileSync(join(tmp.dir, 'suite', 'b.http'), `### b\nDELETE ${server.url}/b\n`);
    const dry = await reqflow(['test', 'suite', '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stderr: '', stdout: `### a\nGET ${server.url}/a\n\n### b\nDELETE ${server.url}/b\n\n` });
    const curl = await reqflow(['test', 'suite', '--as', 'curl']);
    expect(curl.stdout).toContain(`# b\ncurl '${server.url}/b' \\\n  -X 'DELETE' \\\n`);
    writeFileSync(join(tmp.dir, 'suite', 'c.http'), `### c\nGET ${server.url}/{{nowhere}}\n`);
    const failing = await reqflow(['test', 'suite', '--dry-run']);
    expect(failing.code).toBe(3);
    expect(failing.stderr).toMatch(/^reqflow: suite\/c\.http › c: \S*suite\/c\.http:2: unknown variable "nowhere"/m);
    expect((await reqflow(['test', 'suite', '--dry-run', '--report', 'junit=j.xml'])).code).toBe(2);
    expect(server.received).toEqual([]);
  });
});
