/**
 * `reqflow import`'s size limit (docs/import.md): every file an import reads whole — the
 * document, standard input, a Postman environment, an OpenAPI `$ref`'d file, a curl `@file` —
 * is at most `--max-size` bytes (64 MiB unless told), else exit 2 naming it and its size,
 * nothing written. A file's size is read from its stat before any byte of it (a 331 MB HAR read
 * whole took 2.3 GB); a pipe's bytes are counted as they arrive and the read stops past the limit.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, tempDir } from './helpers/cli.js';
import { runImport } from './helpers/import-fixture.js';

const tmp = tempDir('reqflow-import-limit-');
afterAll(() => tmp.cleanup());

/** A HAR of one request, padded past `bytes` with a long header value. */
const har = (bytes = 0): string => JSON.stringify({ log: { version: '1.2', entries: [{ startedDateTime: '2026-01-01T00:00:00Z', request: { method: 'GET', url: 'https://x.example/a', headers: [{ name: 'X-Pad', value: 'p'.repeat(bytes) }] } }] } });
const postman = (bytes = 0): string => JSON.stringify({ info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json', description: 'd'.repeat(bytes) }, item: [{ name: 'r', request: { method: 'GET', url: 'https://x.example/a' } }] });
const environment = (bytes = 0): string => JSON.stringify({ name: 'staging', values: [{ key: 'pad', value: 'v'.repeat(bytes), enabled: true }] });
const openapi = (ref?: string): string => JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: { '200': ref === undefined ? { description: 'ok' } : { $ref: `${ref}#/ok` } } } } } });

let n = 0;
/** `reqflow import ARGS` in the temporary folder into a fresh output folder: its exit code, its first two stderr lines and the files it wrote. */
async function imported(args: string[], input?: string) {
  const out = join(tmp.dir, `out-${++n}`);
  const result = await runImport([...args, '-o', out], tmp.dir, input);
  return { code: result.code, stderr: result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('reqflow: warning:')).slice(0, 2), written: existsSync(out) ? readdirSync(out).length : 0, trace: /^\s+at /m.test(result.stderr) };
}

const over = (name: string, size: number, limit: number) => [
  `reqflow: ${name}: it is ${size.toLocaleString('en')} bytes, over the import limit of ${limit.toLocaleString('en')} bytes: not imported`,
  `hint: raise it with --max-size BYTES (--max-size ${size}): a document takes several times its size in memory`,
];

describe('a file past the limit is exit 2 naming it and its size, nothing written', () => {
  test.each([
    ['har', 'big.har', har(2000)],
    ['postman', 'big.postman_collection.json', postman(2000)],
    ['openapi', 'big-openapi.json', openapi() + ' '.repeat(2000)],
    ['curl', 'big.sh', `curl -H 'X-Pad: ${'p'.repeat(2000)}' https://x.example/a`],
  ])('import %s', async (kind, name, text) => {
    tmp.write(name, text);
    const size = Buffer.byteLength(text);
    expect(await imported([kind, name, '--max-size', '1000'])).toEqual({ code: 2, stderr: over(name, size, 1000), written: 0, trace: false });
    // Raised past its size, the same file is imported.
    expect(await imported([kind, name, '--max-size', String(size)])).toMatchObject({ code: 0, stderr: [] });
  });

  test('with the default limit (64 MiB): a sparse file of 8 GiB is refused from its size alone, never read', async () => {
    // Read whole, it was `cannot read huge.har: ERR_FS_FILE_TOO_LARGE` (past 2 GiB) after trying; 64 MiB + 1 of it, a NUL-bytes error after reading them all.
    for (const [name, size] of [['huge.har', 8 * 1024 ** 3], ['just-over.har', 64 * 1024 ** 2 + 1]] as const) {
      truncateSync(tmp.write(name, ''), size);
      expect(await imported(['har', name])).toEqual({ code: 2, stderr: over(name, size, 64 * 1024 ** 2), written: 0, trace: false });
    }
  });

  test('a Postman environment past the limit names that file', async () => {
    tmp.write('c.postman_collection.json', postman());
    tmp.write('big.postman_environment.json', environment(2000));
    const result = await imported(['postman', 'c.postman_collection.json', '--environment', 'big.postman_environment.json', '--max-size', '1000']);
    expect(result).toEqual({ code: 2, stderr: over('big.postman_environment.json', Buffer.byteLength(environment(2000)), 1000), written: 0, trace: false });
  });

  test("an OpenAPI spec's $ref'd file past the limit names the spec and that file", async () => {
    tmp.write('refs/spec.json', openapi('./responses.json'));
    const responses = tmp.write('refs/responses.json', JSON.stringify({ ok: { description: 'o'.repeat(2000) } }));
    const size = Buffer.byteLength(JSON.stringify({ ok: { description: 'o'.repeat(2000) } }));
    const result = await imported(['openapi', 'refs/spec.json', '--max-size', '1000']);
    expect(result).toEqual({ code: 2, stderr: [`reqflow: refs/spec.json: $ref to ${responses} not read: it is ${size.toLocaleString('en')} bytes, over the import limit of 1,000 bytes: not imported`, over('', size, 1000)[1]], written: 0, trace: false });
    expect(await imported(['openapi', 'refs/spec.json', '--max-size', '5000'])).toMatchObject({ code: 0, stderr: [] });
  });

  test("a curl @file read into the body past the limit names the option and the file", async () => {
    tmp.write('data.json', `{"pad": "${'d'.repeat(2000)}"}`);
    const result = await imported(['curl', 'curl -d @data.json https://x.example/a', '--max-size', '1000']);
    expect(result).toEqual({ code: 2, stderr: over('curl -d @data.json', 2011, 1000), written: 0, trace: false });
  });
});

describe('standard input', () => {
  test('a pipe past the limit is refused once that much has arrived (a pipe has no size to read first)', async () => {
    const result = await imported(['har', '-', '--max-size', '1000'], har(200_000));
    expect(result).toEqual({
      code: 2,
      stderr: ['reqflow: standard input: more than 1,000 bytes arrived, over the import limit of 1,000 bytes: not imported', 'hint: raise it with --max-size BYTES: a document takes several times its size in memory'],
      written: 0,
      trace: false,
    });
  });

  test('a pipe still being written is read to its end (a synchronous read of it failed with EAGAIN, exit 70)', async () => {
    const out = join(tmp.dir, 'slow-pipe');
    const child = spawn(process.execPath, [BIN, 'import', 'har', '-', '-o', out], { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const text = har(10_000);
    // The first half, then the rest once the command is surely reading (it has written nothing before it read all).
    child.stdin.write(text.slice(0, 5000));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.stdin.end(text.slice(5000));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(readdirSync(out).sort()).toEqual(['har.http', 'http-client.env.json']);
  });

  test('within the limit it is imported as before', async () => {
    expect(await imported(['har', '-', '--max-size', '300000'], har(200_000))).toMatchObject({ code: 0, stderr: [] });
  });
});

test('--max-size takes a positive whole number of bytes: anything else is exit 2 naming the flag', async () => {
  tmp.write('small.har', har());
  for (const value of ['0', '-5', '64MiB']) {
    const result = await imported(['har', 'small.har', '--max-size', value]);
    expect({ code: result.code, says: result.stderr[0]?.startsWith('reqflow: ') && result.stderr[0].includes('--max-size'), written: result.written }).toEqual({ code: 2, says: true, written: 0 });
  }
});
