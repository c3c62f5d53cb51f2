/**
 * A large file body — `< ./big.bin` past 1 MiB, `reqflow send -d @big.bin` — is sent from the
 * disk as it goes out (src/core/file-body.ts), never read whole (a 1 GiB upload took 2.1 GB of
 * memory). Against real servers on 127.0.0.1, over HTTP/1.1 and h2c: the server receives exactly
 * the file's bytes with its size as Content-Length, a 307/308 and a retry send it again intact,
 * a file that changes before or while it is sent is refused (exit 2, naming it) and never
 * reaches the server whole, what is shown and kept (history, `-v`, `--dry-run`, `--as curl`) is
 * a placeholder, and memory stays flat for a 512 MiB upload.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { appendFileSync, closeSync, openSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createH2cServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { join } from 'node:path';
import { runCli, runShell, tempDir, type CliResult } from './helpers/cli.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';
import { buildPlugin, pluginSandbox } from './helpers/plugins.js';
import { runMeasured } from './helpers/run-measured.js';
import { needs } from './helpers/system-programs.js';
import { listenOnLoopback } from './servers/http-utils.js';

const MIB = 1024 * 1024;
const withCurl = needs(['curl'], 'the round trip through the real curl');

/** What a server received on one request: every byte hashed, and whether the body arrived whole. */
interface Received {
  url: string;
  method: string;
  contentLength: string | undefined;
  bytes: number;
  sha256: string;
  complete: boolean;
}

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

const tmp = tempDir('reqflow-file-body-');
const stateDir = join(tmp.dir, 'state');
const received: Received[] = [];
/** Per path: what the server does once the body is in (or, for `/during`, after its first bytes). */
const routes = new Map<string, (req: Request, res: Response, got: Received) => void>();
let h1: Server;
let h2c: Http2Server;
let h1Url = '';
let h2cUrl = '';

/** Hashes the body as it comes; `first` runs at its first bytes (the server then reads on), `done` when it ended or was cut short. */
function handle(req: Request, res: Response): void {
  const path = (req.url ?? '').split('?')[0] ?? '';
  const got: Received = { url: req.url ?? '', method: req.method ?? '', contentLength: req.headers['content-length'], bytes: 0, sha256: '', complete: false };
  const hash = createHash('sha256');
  let first = path === '/during';
  req.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    got.bytes += chunk.length;
    if (!first) return;
    first = false;
    req.pause();
    (routes.get(path) as (req: Request, res: Response, got: Received) => void)(req, res, got);
    req.resume();
  });
  const finish = (complete: boolean): void => {
    if (got.sha256 !== '') return;
    got.complete = complete;
    got.sha256 = hash.digest('hex');
    received.push(got);
    if (!complete) return;
    const route = path === '/during' ? undefined : routes.get(path);
    if (route) route(req, res, got);
    else {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ bytes: got.bytes, sha256: got.sha256 }));
    }
  };
  req.on('end', () => finish(true));
  req.on('close', () => finish(false));
}

/** Waits (bounded) until the server has recorded `count` requests: a cut-short one is recorded as its connection closes. */
async function receivedCount(count: number): Promise<Received[]> {
  for (let i = 0; i < 400 && received.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  return received.slice();
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `size` bytes of text that says where each of its lines is (a lost, doubled or moved piece shows in the hash). */
function textOf(size: number, marker: string): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = `${marker} line ${String(i).padStart(8, '0')}\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}

/** A sparse file of `size` zero bytes (nothing written to the disk). */
function sparse(name: string, size: number): string {
  const path = join(tmp.dir, name);
  closeSync(openSync(path, 'w'));
  truncateSync(path, size);
  return path;
}

/** The sha256 of `size` zero bytes, hashed a MiB at a time. */
function zerosSha256(size: number): string {
  const hash = createHash('sha256');
  const zeros = Buffer.alloc(MIB);
  for (let left = size; left > 0; left -= MIB) hash.update(left >= MIB ? zeros : zeros.subarray(0, left));
  return hash.digest('hex');
}

function reqflow(args: string[]): Promise<CliResult> {
  return runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir }, timeoutMs: 60_000 });
}

const upload = textOf(3 * MIB + 17, 'reqflow-upload-marker');

beforeAll(async () => {
  h1 = createServer(handle);
  h1Url = `http://127.0.0.1:${await listenOnLoopback(h1)}`;
  h2c = createH2cServer(handle);
  h2cUrl = await new Promise<string>((resolve) => h2c.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(h2c.address() as { port: number }).port}`)));
  tmp.write('upload.bin', upload);
});

afterAll(async () => {
  await Promise.all([new Promise((resolve) => h1.close(resolve)), new Promise((resolve) => h2c.close(resolve))]);
  tmp.cleanup();
});

describe.each([
  ['HTTP/1.1', () => h1Url, '', 307],
  ['h2c', () => h2cUrl, ' HTTP/2', 308],
])('a multi-MiB file body over %s', (_protocol, base, version, redirect) => {
  test('the server receives exactly the file, its size as Content-Length; -v shows a placeholder, never the bytes', async () => {
    received.length = 0;
    tmp.write('up.http', `POST ${base()}/up${version}\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);
    const result = await reqflow(['run', 'up.http', '-v']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))).toEqual({ bytes: upload.length, sha256: sha256(upload) });
    expect(received.map(({ contentLength, bytes, sha256: hash, complete }) => ({ contentLength, bytes, hash, complete }))).toEqual([{ contentLength: String(upload.length), bytes: upload.length, hash: sha256(upload), complete: true }]);
    const output = result.stdout + result.stderr;
    expect(output).toContain(`<file ./upload.bin, ${upload.length} bytes>`);
    expect(output).not.toContain('reqflow-upload-marker');
  });

  test(`a ${redirect} sends the file again, intact, opened again`, async () => {
    received.length = 0;
    routes.set('/moved', (_req, res) => {
      res.writeHead(redirect, { Location: '/up?again' });
      res.end();
    });
    tmp.write('moved.http', `PUT ${base()}/moved${version}\n\n< ./upload.bin\n`);
    const result = await reqflow(['run', 'moved.http', '-L', '-o', 'raw']);
    expect(result.code).toBe(0);
    expect(received.map(({ url, method, bytes, sha256: hash, complete }) => ({ url, method, bytes, hash, complete }))).toEqual([
      { url: '/moved', method: 'PUT', bytes: upload.length, hash: sha256(upload), complete: true },
      { url: '/up?again', method: 'PUT', bytes: upload.length, hash: sha256(upload), complete: true },
    ]);
  });

  test(`a file that changed before the ${redirect}'s resend is refused there: exit 2 naming it, nothing more sent`, async () => {
    received.length = 0;
    const path = tmp.write('changes.bin', upload);
    routes.set('/change-then-move', (_req, res) => {
      appendFileSync(path, 'one more line\n');
      res.writeHead(redirect, { Location: '/up?after-change' });
      res.end();
    });
    tmp.write('changes.http', `PUT ${base()}/change-then-move${version}\n\n< ./changes.bin\n`);
    const result = await reqflow(['run', 'changes.http', '-L', '-o', 'raw']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: the body file \.\/changes\.bin \(.*changes\.http:3\) changed before it was sent \(it was 3145745 bytes, it is 3145759 now\): none of its bytes were sent\n/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const seen = await receivedCount(1);
    expect(seen.map(({ url, complete }) => ({ url, complete }))).toEqual([{ url: '/change-then-move', complete: true }]);
    expect(seen.filter((got) => got.url === '/up?after-change' && got.complete)).toEqual([]);
  });

  test('a file that grows or shrinks while it is sent is refused, exit 2 naming it: the server never gets a whole body', async () => {
    for (const [change, why] of [
      ['grows', /\(it was 33554432 bytes, it is 33554433 now\)/],
      ['shrinks', /\(it ended after \d+ bytes\)|\(it was 33554432 bytes, it is 1048576 now\)/],
    ] as const) {
      received.length = 0;
      // 32 MiB: past what the socket buffers hold, so the file changes (at the server's first bytes) before reqflow reads its end.
      const path = sparse(`during-${change}.bin`, 32 * MIB);
      routes.set('/during', () => (change === 'grows' ? appendFileSync(path, 'x') : truncateSync(path, MIB)));
      tmp.write(`during-${change}.http`, `POST ${base()}/during${version}\n\n< ./during-${change}.bin\n`);
      const result = await reqflow(['run', `during-${change}.http`, '-o', 'raw']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^reqflow: the body file \\./during-${change}\\.bin \\(.*during-${change}\\.http:3\\) changed while it was sent `));
      expect(result.stderr).toMatch(why);
      expect(result.stderr).toContain('the request was cut short: the server did not get a whole body');
      const [got] = await receivedCount(1);
      expect({ complete: got?.complete, short: (got?.bytes ?? 0) < 32 * MIB }).toEqual({ complete: false, short: true });
    }
  });
});

describe('what is kept and shown of a file body', () => {
  test('the history entry holds the placeholder (the file as written, its size), never the bytes', async () => {
    tmp.write('kept.http', `### kept\nPOST ${h1Url}/up\n\n< ./upload.bin\n`);
    expect((await reqflow(['run', 'kept.http', '-o', 'raw'])).code).toBe(0);
    const path = historyFileFor(stateDir, tmp.dir);
    const entry = historyLines(path).entries.filter((e) => e.name === 'kept').at(-1);
    expect(entry?.request).toEqual({ headers: {}, size: upload.length, file: './upload.bin' });
    expect(readFileSync(path, 'utf8')).not.toContain('reqflow-upload-marker');
    const shown = await reqflow(['history', 'show', entry?.id ?? '']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`\nPOST ${h1Url}/up\n\n<file ./upload.bin, ${upload.length} bytes>\n`);
  });

  test('reqflow test\'s report of a failed check shows the placeholder as the request body, never the bytes', async () => {
    tmp.write('checked.http', `POST ${h1Url}/up\n\n< ./upload.bin\n\n?? status == 201\n`);
    const page = join(tmp.dir, 'report.html');
    const result = await runCli(['test', 'checked.http', '--report', `html=${page}`], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir }, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('expected status == 201, got 200');
    expect(html).toContain(`&#x3C;file ./upload.bin, ${upload.length} bytes>`); // `<` escaped by the page
    expect(html).not.toContain('reqflow-upload-marker');
  });

  test('--dry-run writes the include (the block sends the same bytes); nothing is read or sent', async () => {
    received.length = 0;
    tmp.write('dry.http', `POST ${h1Url}/up\n\n< ./upload.bin\n`);
    const result = await reqflow(['run', 'dry.http', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`### request-1\nPOST ${h1Url}/up\n\n< ${join(tmp.dir, 'upload.bin')}\n\n`);
    expect(received).toEqual([]);
  });

  test('a later request that reads {{up.request.body}} gets the file text as it was sent', async () => {
    received.length = 0;
    tmp.write('ref.http', `### up\nPOST ${h1Url}/up\n\n< ./upload.bin\n\n### echo\nPOST ${h1Url}/up?echo\n\n{{up.request.body}}\n`);
    const result = await reqflow(['run', 'ref.http', '-o', 'raw']);
    expect(result.code).toBe(0);
    expect(received.map(({ url, bytes, sha256: hash }) => ({ url, bytes, hash }))).toEqual([
      { url: '/up', bytes: upload.length, hash: sha256(upload) },
      { url: '/up?echo', bytes: upload.length, hash: sha256(upload) },
    ]);
  });

  test('a file of at most 1 MiB is read as before: -v shows its text', async () => {
    tmp.write('small.txt', textOf(MIB, 'small-file-text'));
    tmp.write('small.http', `POST ${h1Url}/up\n\n< ./small.txt\n`);
    const result = await reqflow(['run', 'small.http', '-v']);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toContain('small-file-text line 00000000');
    expect(result.stdout + result.stderr).not.toContain('<file ');
  });
});

describe('--retry and reqflow send', () => {
  test('a retried PUT (503, then 200) sends the file again, intact', async () => {
    received.length = 0;
    let calls = 0;
    routes.set('/busy', (_req, res) => {
      calls += 1;
      res.writeHead(calls === 1 ? 503 : 200, { 'Retry-After': '0' });
      res.end(calls === 1 ? 'busy' : 'ok');
    });
    tmp.write('busy.http', `PUT ${h1Url}/busy\n\n< ./upload.bin\n`);
    const result = await reqflow(['run', 'busy.http', '--retry', '1', '-o', 'raw']);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: 'ok' });
    expect(received.map(({ bytes, sha256: hash, complete }) => ({ bytes, hash, complete }))).toEqual([
      { bytes: upload.length, hash: sha256(upload), complete: true },
      { bytes: upload.length, hash: sha256(upload), complete: true },
    ]);
  });

  test('reqflow send -d @FILE streams it too', async () => {
    received.length = 0;
    const result = await reqflow(['send', 'POST', `${h1Url}/up`, '-d', '@upload.bin', '-v']);
    expect(result.code).toBe(0);
    expect(received.map(({ bytes, sha256: hash }) => ({ bytes, hash }))).toEqual([{ bytes: upload.length, hash: sha256(upload) }]);
    expect(result.stderr + result.stdout).toContain(`<file upload.bin, ${upload.length} bytes>`);
  });
});

withCurl.describe('--as curl of a file body', () => {
  test('prints curl -T FILE (curl streams it too), which sends the same bytes with the same method', async () => {
    received.length = 0;
    tmp.write('curl.http', `POST ${h1Url}/up\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);
    const printed = await reqflow(['run', 'curl.http', '--as', 'curl']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`\n  -X 'POST' \\\n`);
    expect(printed.stdout).toContain(`\n  -T '${join(tmp.dir, 'upload.bin')}'\n`);
    expect(received).toEqual([]);
    const curl = await runShell('/bin/sh', printed.stdout, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect(curl.code).toBe(0);
    expect(received.map(({ url, method, contentLength, sha256: hash }) => ({ url, method, contentLength, hash }))).toEqual([{ url: '/up', method: 'POST', contentLength: String(upload.length), hash: sha256(upload) }]);
  });
});

describe('a plugin that signs the body (plugins/auth-hmac)', () => {
  const SECRET = 'file-body-hmac-secret';
  const sandbox = pluginSandbox();
  afterAll(() => sandbox.cleanup());

  test('reads the file whole when it reads spec.body: the bytes sent are the bytes signed, and the server verifies them', async () => {
    received.length = 0;
    // Verified as the plugin's README says, independently of it: HMAC-SHA256 over "METHOD\ntarget\ntimestamp\nhex(sha256(body))" of what arrived.
    routes.set('/signed', (req, res, got) => {
      const canonical = [req.method, req.url, String(req.headers['x-timestamp']), got.sha256].join('\n');
      const verified = createHmac('sha256', SECRET).update(canonical).digest('hex') === req.headers['x-signature'];
      res.writeHead(verified ? 200 : 401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ verified, bytes: got.bytes, sha256: got.sha256 }));
    });
    expect((await sandbox.cli(['plugins', 'link', buildPlugin('auth-hmac'), '--no-install'])).code).toBe(0);
    sandbox.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { hmacSecret: SECRET }, auth: { type: 'hmac' } }]));
    writeFileSync(join(sandbox.dir, 'upload.bin'), upload);
    sandbox.write('signed.http', `POST ${h1Url}/signed\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);
    const result = await sandbox.cli(['run', 'signed.http', '-o', 'raw'], { timeoutMs: 60_000 });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ verified: true, bytes: upload.length, sha256: sha256(upload) });
  });
});

describe('memory', () => {
  test('a 512 MiB upload (consumed by the server) adds at most 64 MB to a one-GET run (it was the file twice over)', async () => {
    const size = 512 * MIB;
    sparse('huge.bin', size);
    tmp.write('huge.http', `POST ${h1Url}/up\n\n< ./huge.bin\n`);
    tmp.write('get.http', `GET ${h1Url}/up\n`);
    received.length = 0;
    const one = await runMeasured(['run', 'get.http', '-o', 'raw', '--no-history'], tmp.dir);
    const huge = await runMeasured(['run', 'huge.http', '-o', 'raw', '--no-history'], tmp.dir);
    expect({ code: one.code, stderr: one.stderr }).toEqual({ code: 0, stderr: '' });
    expect({ code: huge.code, stderr: huge.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(huge.stdout)).toEqual({ bytes: size, sha256: zerosSha256(size) });
    expect(huge.peakMb - one.peakMb).toBeLessThan(64);
  });
});
