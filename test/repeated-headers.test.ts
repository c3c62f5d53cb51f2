/**
 * Repeated header fields on the wire. Response: a field the server repeats is shown line by
 * line in `-v` and as an array in `-o json` (Node would join the values with commas, which
 * changes a value that holds a comma of its own); a repeated Content-Type keeps the first, as
 * Node does. Request: repeated lines in the file are combined into one field as RFC 9110 §5.3
 * defines (Cookie with "; ", RFC 6265 §5.4), in the order written.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

const tmp = tempDir('reqflow-headers-');
let server: Server;
let base = '';
/** The raw request heads received. */
const heads: string[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (!data.includes('\r\n\r\n')) return;
      heads.push(data.slice(0, data.indexOf('\r\n\r\n')));
      socket.end(
        'HTTP/1.1 200 OK\r\nX-Multi: a\r\nContent-Type: text/plain\r\nX-Multi: b, c\r\nContent-Type: text/html\r\n' +
          'Link: <https://example.com/1>; rel="next"\r\nLink: <https://example.com/9>; rel="last"\r\nX-Once: Tue, 24 Nov 2026 10:00:00 GMT\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok',
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (text: string, ...args: string[]) => runCli(['run', tmp.write(`h${heads.length}.http`, text.replaceAll('BASE', base)), ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

test('a repeated response field: each value in -o json and each line in -v; one Content-Type', async () => {
  const json = await run('GET BASE/json\n', '-o', 'json');
  expect(json.code).toBe(0);
  const [record] = parseRecords(json.stdout);
  expect(record?.headers).toMatchObject({
    'x-multi': ['a', 'b, c'],
    link: ['<https://example.com/1>; rel="next"', '<https://example.com/9>; rel="last"'],
    'x-once': 'Tue, 24 Nov 2026 10:00:00 GMT',
    'content-type': 'text/plain',
  });
  const verbose = await run('GET BASE/verbose\n', '-v');
  expect(verbose.code).toBe(0);
  const shown = verbose.stdout + verbose.stderr;
  expect(shown).toMatch(/^x-multi: a$/m);
  expect(shown).toMatch(/^x-multi: b, c$/m);
  expect(shown).toMatch(/^link: <https:\/\/example\.com\/9>; rel="last"$/m);
});

test('repeated request lines: one field each, values in the order written', async () => {
  heads.length = 0;
  const result = await run('GET BASE/req\nAccept: application/json\nAccept: text/plain\nCookie: a=1\nCookie: b=2\nX-Trace: one\n');
  expect(result.code).toBe(0);
  const lines = (heads[0] ?? '').split('\r\n');
  expect(lines.filter((line) => /^accept:/i.test(line))).toEqual(['Accept: application/json, text/plain']);
  expect(lines.filter((line) => /^cookie:/i.test(line))).toEqual(['Cookie: a=1; b=2']);
  expect(lines.filter((line) => /^x-trace:/i.test(line))).toEqual(['X-Trace: one']);
});
