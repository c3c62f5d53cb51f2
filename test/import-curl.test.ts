/**
 * `reqflow import curl`: commands from API docs and from Chrome's and Firefox's "Copy as cURL"
 * become .http files that send the same request — checked on the wire by a recording server.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { runImport, runImported, stageFixture } from './helpers/import-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
beforeAll(async () => {
  server = await startRecorder();
});
afterAll(() => server.close());

async function importAndRun(fixture: string, hosts: string[], beside: string[] = []) {
  const staged = stageFixture(fixture, Object.fromEntries(hosts.map((host) => [host, server.url])), beside);
  const imported = await runImport(['curl', staged.source, '-o', 'out'], staged.dir);
  const before = server.received.length;
  const name = fixture.split('/').at(-1)?.replace(/\.sh$/, '.http') ?? '';
  const run = await runImported(join('out', name), staged.dir, ['--env', 'dev']);
  return { staged, imported, run, received: server.received.slice(before) };
}

describe('curl commands from API docs', () => {
  test('-u key:, -d pairs, -G --data-urlencode, --json and -F each send what curl sends', async () => {
    const { staged, imported, run, received } = await importAndRun('curl/api-docs.sh', ['https://api.example.com', 'https://files.example.com'], ['curl/receipt.txt']);
    try {
      expect(imported.code).toBe(0);
      expect(run.code).toBe(0);
      const basic = `Basic ${Buffer.from('sk_test_4eC39HqLyjWDarjtT1zdp7dc:').toString('base64')}`;
      const [charge, list, user, upload] = received;
      expect(charge?.method).toBe('POST');
      expect(charge?.url).toBe('/v1/charges');
      expect(charge?.headers.authorization).toBe(basic);
      expect(charge?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(charge?.body.toString()).toBe('amount=2000&currency=usd&description=Charge for ada@example.com');
      expect(list?.method).toBe('GET');
      // curl's form encoding: a space is `+` (curl 7.88 sends `amount%3E999+AND+…`).
      expect(list?.url).toBe(`/v1/charges?query=${encodeURIComponent("amount>999 AND status:'succeeded'").replace(/'/g, '%27').replace(/%20/g, '+')}&limit=3`);
      expect(user?.headers['content-type']).toBe('application/json');
      expect(user?.headers.accept).toBe('application/json');
      expect(user?.headers.authorization).toBe('Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a');
      expect(user?.body.toString()).toBe('{"name": "Ada", "roles": ["admin"]}');
      expect(upload?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=reqflow-import-[0-9a-f]{24}$/);
      const boundary = /boundary=(\S+)/.exec(upload?.headers['content-type'] ?? '')?.[1] ?? '';
      expect(upload?.headers['accept-encoding']).toBe('gzip, deflate, br');
      expect(upload?.body.toString()).toBe(
        `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="receipt.txt"\r\nContent-Type: text/plain\r\n\r\ntotal: 12.50 EUR\n\r\n--${boundary}--`,
      );
      const http = readFileSync(join(staged.dir, 'out', 'api-docs.http'), 'utf8');
      // Credentials are variables; their values are in the private file only, and never printed.
      expect(http).not.toContain('sk_test_');
      expect(http).not.toContain('ghp_');
      expect(JSON.parse(readFileSync(join(staged.dir, 'out', 'http-client.private.env.json'), 'utf8'))).toEqual({ dev: { username: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', password: '', token: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a' } });
      expect(imported.stdout + imported.stderr).not.toContain('ghp_');
    } finally {
      staged.cleanup();
    }
  });
});

describe('Copy as cURL', () => {
  test('Chrome: continuations, $\'…\' quoting, -b cookies and sec-ch-* headers as written, the body byte for byte', async () => {
    const { staged, imported, run, received } = await importAndRun('curl/chrome.sh', ['https://app.example.com']);
    try {
      expect(imported.code).toBe(0);
      expect(run.code).toBe(0);
      const [request] = received;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/api/graphql?op=UpdateProfile');
      expect(request?.headers['sec-ch-ua']).toBe('"Chromium";v="131", "Not_A Brand";v="24"');
      expect(request?.headers['sec-ch-ua-platform']).toBe('"Linux"');
      expect(request?.headers.cookie).toBe('session=eyJ1aWQiOjQyfQ.Zx9a1w.kq3v; theme=dark; _ga=GA1.1.1234567890.1700000000');
      expect(request?.headers['x-csrf-token']).toBe('9f8e7d6c5b4a');
      expect(request?.headers['user-agent']).toMatch(/Chrome\/131/);
      expect(request?.body.toString('utf8')).toBe('{"operationName":"UpdateProfile","variables":{"bio":"It\'s me — Ada\\nLine two","tags":["math","poetry"]},"query":"mutation UpdateProfile($bio: String!) { updateProfile(bio: $bio) { id } }"}');
    } finally {
      staged.cleanup();
    }
  });

  test('Firefox: one line, Cookie as a header, the form body exact; the Connection header is sent as written', async () => {
    const { staged, imported, run, received } = await importAndRun('curl/firefox.sh', ['https://shop.example.com']);
    try {
      expect(imported.code).toBe(0);
      expect(run.code).toBe(0);
      const [request] = received;
      expect(request?.url).toBe('/cart/add');
      expect(request?.headers.cookie).toBe('cart=c-77; consent=yes');
      expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
      expect(request?.headers['x-requested-with']).toBe('XMLHttpRequest');
      expect(request?.body.toString()).toBe('product_id=42&qty=2&note=gift+wrap%21');
    } finally {
      staged.cleanup();
    }
  });
});

describe('options', () => {
  const tmp = tempDir('reqflow-import-curl-');
  afterAll(() => tmp.cleanup());

  test('-k, --cert/--key/--cacert, -m and --retry become annotations; -L a note; from standard input', async () => {
    const dir = join(tmp.dir, 'tls');
    const result = await runImport(['curl', '-', '-o', dir], tmp.dir, "curl -k -L --cert client.pem:pw --key client.key --cacert ca.pem -m 30 --retry 2 https://internal.example/status\n");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('run it with reqflow run -L');
    const http = readFileSync(join(dir, 'get-status.http'), 'utf8');
    expect(http).toContain('# @tls.insecureSkipVerify true\n# @timeout 30\n# @retry 2\n# @tls.certFile ../client.pem\n# @tls.passphrase {{certPassphrase}}\n# @tls.keyFile ../client.key\n# @tls.caFile ../ca.pem\nGET https://internal.example/status');
  });

  test('dot segments of the path are resolved as curl resolves them before sending, unless --path-as-is', async () => {
    for (const [command, line] of [
      ['curl http://127.0.0.1:1/a/b/../c/./d?x=../y', 'GET http://127.0.0.1:1/a/c/d?x=../y'],
      ['curl http://127.0.0.1:1/a/b/..', 'GET http://127.0.0.1:1/a/'],
      ['curl --path-as-is http://127.0.0.1:1/a/../b', 'GET http://127.0.0.1:1/a/../b'],
    ] as const) {
      const dir = join(tmp.dir, `dots-${line.length}-${command.length}`);
      expect((await runImport(['curl', command, '-o', dir], tmp.dir)).code).toBe(0);
      const written = readdirSync(dir).filter((file) => file.endsWith('.http')).map((file) => readFileSync(join(dir, file), 'utf8')).join('');
      expect(written.split('\n')).toContain(line);
    }
  });

  test('an unknown option is a warning naming it; an option a request file cannot say is exit 2 naming it', async () => {
    const warned = await runImport(['curl', 'curl --frobnicate https://x.example/a', '-o', join(tmp.dir, 'unknown')], tmp.dir);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('unknown curl option --frobnicate');
    const refused = await runImport(['curl', 'curl --ntlm -u a:b https://x.example/a', '-o', join(tmp.dir, 'refused')], tmp.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^reqflow: curl option --ntlm cannot be written in a request file: it changes what is sent\nhint: /);
    expect(refused.stderr).not.toMatch(/at \S+:\d+/);
  });

  test('--env-name names the environment; a name that is not one is exit 2', async () => {
    const dir = join(tmp.dir, 'env-name');
    expect((await runImport(['curl', 'curl https://x.example/a', '-o', dir, '--env-name', 'local'], tmp.dir)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'http-client.env.json'), 'utf8'))).toEqual({ local: {} });
    const bad = await runImport(['curl', 'curl https://x.example/a', '-o', dir, '--env-name', '$shared'], tmp.dir);
    expect(bad.code).toBe(2);
  });

  test('the plain run path never loads the import parsers: its bundle holds none of them', () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'bundle', 'fast-run.cjs'), 'utf8');
    for (const name of ['shlex', '@readme/openapi-parser', 'openapi-sampler', 'postman-collection', 'run-import']) expect({ name, found: bundle.includes(name) }).toEqual({ name, found: false });
  });

  test('an unclosed quote is one line naming the source, exit 2', async () => {
    const result = await runImport(['curl', "curl 'https://x.example/a", '-o', join(tmp.dir, 'quote')], tmp.dir);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^reqflow: the curl command: not a shell command line/);
  });
});

describe('the bytes curl sends', () => {
  const tmp = tempDir('reqflow-import-curl-bytes-');
  afterAll(() => tmp.cleanup());
  /** Imports `command` (with URL as the recorder) and runs it: what the server received. */
  async function sent(name: string, command: string) {
    const dir = join(tmp.dir, name);
    const imported = await runImport(['curl', '-', '-o', dir], tmp.dir, command.replaceAll('URL', `${server.url}/${name}`));
    if (imported.code !== 0) return { imported, received: [] };
    const before = server.received.length;
    const [file] = (await import('node:fs')).readdirSync(dir).filter((entry) => entry.endsWith('.http'));
    const run = await runImported(join(dir, file as string), tmp.dir, ['--env', 'dev']);
    expect(run.code).toBe(0);
    return { imported, received: server.received.slice(before) };
  }

  test('--data-urlencode: a space as +, and name@file encodes the file\'s own bytes, UTF-8 or not', async () => {
    tmp.write('latin1.dat', Buffer.from([0x61, 0xff, 0x62, 0x0d, 0x0a, 0x63, 0xe9]));
    const { received } = await sent('urlencode', "curl URL --data-urlencode 'name=a b&c' --data-urlencode 'f@latin1.dat'");
    // What curl 7.88 sends for the same command.
    expect(received.map((r) => r.body.toString('latin1'))).toEqual(['name=a+b%26c&f=a%FFb%0D%0Ac%E9']);
  });

  test('-d @file: line breaks dropped and the bytes up to a NUL, as curl; a file that is not UTF-8 is exit 2 naming it', async () => {
    tmp.write('lines.dat', Buffer.from('a=1\r\n&b=2\n\u0000&c=3'));
    const { received } = await sent('data-file', 'curl URL -d @lines.dat');
    expect(received.map((r) => r.body.toString('latin1'))).toEqual(['a=1&b=2']);
    const refused = await sent('data-latin1', 'curl URL -d @latin1.dat');
    expect(refused.imported.code).toBe(2);
    expect(refused.imported.stderr).toMatch(/^reqflow: curl -d @latin1\.dat: the file is not UTF-8 text, which a request file cannot hold as written \(its bytes would change\)\n/);
  });

  test('-F: a quoted ; belongs to the file name, and the part\'s type follows the name it is sent with', async () => {
    tmp.write('page.html', '<p>hi</p>\n');
    const { received } = await sent('form-name', `curl URL -F 'i=@page.html;filename="a;b.txt"'`);
    expect(received[0]?.body.toString()).toContain('Content-Disposition: form-data; name="i"; filename="a;b.txt"\r\nContent-Type: text/plain\r\n\r\n<p>hi</p>\n\r\n');
  });
});

describe('round trip', () => {
  const tmp = tempDir('reqflow-import-roundtrip-');
  afterAll(() => tmp.cleanup());

  test('import curl of what --as curl printed sends the same request as the file itself', async () => {
    const file = tmp.write('orig/rt.http', `POST ${server.url}/round-trip?x=1&y=%20z\nContent-Type: application/json\nX-Trace: abc "quoted" 'single'\n\n{"a": 1, "b": "it's"}\n`);
    const printed = await runCli(['run', file, '--dry-run', '--as', 'curl'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, '.state') } });
    expect(printed.code).toBe(0);
    const imported = await runImport(['curl', '-', '-o', 'back'], tmp.dir, printed.stdout);
    expect(imported.code).toBe(0);
    expect(imported.stderr).not.toMatch(/warning/); // the printed "# request-1" line is a comment
    const before = server.received.length;
    expect((await runImported(file, tmp.dir)).code).toBe(0);
    expect((await runImported(join('back', 'post-round-trip.http'), tmp.dir, ['--env', 'dev'])).code).toBe(0);
    const [direct, again] = server.received.slice(before);
    expect(again?.method).toBe(direct?.method);
    expect(again?.url).toBe(direct?.url);
    expect(again?.body.toString()).toBe(direct?.body.toString());
    for (const name of ['content-type', 'x-trace', 'user-agent', 'accept']) expect([name, again?.headers[name]]).toEqual([name, direct?.headers[name]]);
  });

  test('a # line inside a quoted body is the body, one outside any quote a comment', async () => {
    const command = `# the notes endpoint\ncurl ${server.url}/notes -H 'Content-Type: text/plain' --data-binary 'first line\n# not a comment\nlast line'\n`;
    const imported = await runImport(['curl', '-', '-o', 'notes'], tmp.dir, command);
    expect(imported.code).toBe(0);
    expect(imported.stderr).not.toMatch(/warning/);
    const before = server.received.length;
    expect((await runImported(join('notes', 'post-notes.http'), tmp.dir, ['--env', 'dev'])).code).toBe(0);
    expect(server.received[before]?.body.toString()).toBe('first line\n# not a comment\nlast line');
  });
});
