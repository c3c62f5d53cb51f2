/**
 * The session file as `cat` or a line-based reader meets it (docs/security.md): a cookie a
 * hostile server set with a byte 0x9B (read as U+009B, a terminal's 8-bit CSI) and a script
 * global holding C1, bidi and U+2028 characters are in the file only as `\u` escapes
 * (`JSON.stringify` wrote them raw), and the next run still sends the cookie as the server set it
 * and the global as it was. End to end, a real server on 127.0.0.1 writing its answers byte by byte.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { sessionFileFor } from './helpers/session-file.js';

/** What a terminal acts on that JSON text may hold raw (DEL, C1, bidi controls), and what a line reader takes for a line end. */
const ACTED_ON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const GLOBAL = 'one\u009b2Jtwo\u0085three\u202eevil\u2028four';

const tmp = tempDir('reqflow-session-controls-');
const stateDir = join(tmp.dir, 'state');
const projectDir = join(tmp.dir, 'project');
let server: Server;
/** The raw bytes of each `Cookie` header the server was sent, and of each request body. */
const cookiesSent: Buffer[] = [];
const bodiesSent: Buffer[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    socket.once('data', (request) => {
      const head = request.subarray(0, request.indexOf('\r\n\r\n'));
      const cookie = head.toString('latin1').match(/\r\ncookie: ([^\r]*)/i);
      if (cookie) cookiesSent.push(Buffer.from(cookie[1] as string, 'latin1'));
      bodiesSent.push(request.subarray(head.length + 4));
      const body = Buffer.from(JSON.stringify({ v: GLOBAL }), 'utf8');
      const setCookie = head.includes('/set') ? Buffer.concat([Buffer.from('Set-Cookie: sid=a'), Buffer.from([0x9b]), Buffer.from('b; Path=/\r\n')]) : Buffer.alloc(0);
      socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n'), setCookie, Buffer.from(`Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp.write('project/.profiles.json', '[]');
  tmp.write('project/set.http', `GET ${base}/set\n\n> {% client.global.set("v", response.body.v); %}\n`);
  tmp.write('project/use.http', `POST ${base}/use\nContent-Type: text/plain; charset=utf-8\n\n{{v}}\n`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

test('a hostile cookie and global are in the session file only as \\u escapes, and the next run sends them as they came', async () => {
  const env = { REQFLOW_STATE_DIR: stateDir };
  const set = await runCli(['run', 'set.http', '-o', 'raw'], { cwd: projectDir, env });
  expect(set.code).toBe(0);
  const text = readFileSync(sessionFileFor(stateDir, projectDir), 'utf8');
  expect(ACTED_ON.exec(text)).toBeNull();
  expect(text).toContain('a\\u009bb');
  expect(text).toContain('one\\u009b2Jtwo\\u0085three\\u202eevil\\u2028four');

  // Read back: the next run sends the cookie as the byte the server set, and the global as the text it was.
  const used = await runCli(['run', 'use.http', '-o', 'raw'], { cwd: projectDir, env });
  expect(used.code).toBe(0);
  expect(cookiesSent.at(-1)).toEqual(Buffer.concat([Buffer.from('sid=a'), Buffer.from([0x9b]), Buffer.from('b')]));
  expect(bodiesSent.at(-1)?.toString('utf8')).toBe(GLOBAL);
});
