/**
 * Issue 23, per request: a request without templates is substituted synchronously, with no
 * resolver built and its errors worded by a module imported only then (core/stages/
 * substitute-errors.ts). It must go out, and fail, exactly as a request whose text comes
 * from variables does.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir();
const env = { REQFLOW_STATE_DIR: `${tmp.dir}/state` };

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

describe('a request without templates', () => {
  test('goes out as the same request written with variables does: target, repeated lines, body', async () => {
    const port = new URL(server.url).port;
    const request = (url: string, header: string) => `POST ${url}/items?a=1&b="x"\nX-Tag: ${header}\nX-Tag: two\nContent-Type: text/plain\n\nhello\n`;
    tmp.write('both.http', `### plain\n${request(server.url, 'one')}\n### templated\n${request('http://127.0.0.1:{{port}}', '{{tag}}')}`);
    const result = await runCli(['run', 'both.http', '-o', 'raw', '-e', `port=${port}`, '-e', 'tag=one'], { cwd: tmp.dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [plain, templated] = server.received.slice(-2);
    expect(plain?.url).toBe('/items?a=1&b="x"');
    expect(plain?.body.toString()).toBe('hello');
    expect(plain?.headers['x-tag']).toBe('one, two');
    expect({ ...plain, body: plain?.body.toString() }).toEqual({ ...templated, body: templated?.body.toString() });
  });

  test('a port out of range is the same exit 2 and line, worded when it happens', async () => {
    tmp.write('port.http', 'GET http://127.0.0.1:99999/x\n');
    tmp.write('port-var.http', 'GET http://127.0.0.1:{{port}}/x\n');
    const plain = await runCli(['run', 'port.http'], { cwd: tmp.dir, env });
    const templated = await runCli(['run', 'port-var.http', '-e', 'port=99999'], { cwd: tmp.dir, env });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/^reqflow: \S*port\.http:1: port 99999 is out of range \(1–65535\) in http:\/\/127\.0\.0\.1:99999\/x\n/);
    expect(templated.code).toBe(2);
    expect(templated.stderr).toMatch(/^reqflow: \S*port-var\.http:1: port 99999 is out of range \(1–65535\) in http:\/\/127\.0\.0\.1:99999\/x, from \{\{port\}\}\n/);
  });

  test('checks of a file of many plain requests report each failure with its line', async () => {
    tmp.write('checks.http', `### a\nGET ${server.url}/a\n\n?? status == 200\n\n### b\nGET ${server.url}/b\n\n?? status == 201\n`);
    const result = await runCli(['test', 'checks.http'], { cwd: tmp.dir, env });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/checks\.http:9/);
    expect(result.stdout + result.stderr).toMatch(/expected status == 201, got 200/);
  });
});

/**
 * Node is handed a request's host, port and path as options of reqflow's own (one-hop.ts), not
 * the URL to take apart again: the host each form of URL names still goes out as it is written.
 */
describe('where a request goes', () => {
  test('a name, a port, user info and a Host header of the file go out as written', async () => {
    const port = new URL(server.url).port;
    tmp.write('hosts.http', [`GET http://localhost:${port}/name`, `GET http://user:pa%40ss@127.0.0.1:${port}/userinfo?x=1`, `GET http://127.0.0.1:${port}\nHost: other.example:99`].join('\n\n###\n'));
    const before = server.received.length;
    const result = await runCli(['run', 'hosts.http', '-o', 'raw'], { cwd: tmp.dir, env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [name, userinfo, host] = server.received.slice(before);
    expect([name?.url, name?.headers.host]).toEqual(['/name', `localhost:${port}`]);
    expect([userinfo?.url, userinfo?.headers.host, userinfo?.headers.authorization]).toEqual(['/userinfo?x=1', `127.0.0.1:${port}`, `Basic ${Buffer.from('user:pa@ss').toString('base64')}`]);
    expect([host?.url, host?.headers.host]).toEqual(['/', 'other.example:99']);
  });

  test('an IPv6 literal goes to that address, its Host in brackets', async () => {
    const { createServer } = await import('node:http');
    const hosts: string[] = [];
    const v6 = createServer((req, res) => {
      hosts.push(`${req.socket.localAddress ?? ''} ${req.headers.host ?? ''}`);
      res.end('ok');
    });
    const listening = await new Promise<boolean>((resolve) => {
      v6.once('error', () => resolve(false));
      v6.listen(0, '::1', () => resolve(true));
    });
    if (!listening) {
      console.log('skipped: this machine has no IPv6 loopback (::1)');
      return;
    }
    try {
      const { port } = v6.address() as { port: number };
      tmp.write('v6.http', `GET http://[::1]:${port}/six\n`);
      const result = await runCli(['run', 'v6.http', '-o', 'raw'], { cwd: tmp.dir, env });
      expect(result).toMatchObject({ code: 0, stdout: 'ok', stderr: '' });
      expect(hosts).toEqual([`::1 [::1]:${port}`]);
    } finally {
      await new Promise((resolve) => v6.close(resolve));
    }
  });
});
