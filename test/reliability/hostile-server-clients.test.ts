/**
 * `reqflow mock` and `reqflow proxy` attacked by their clients, over raw sockets on 127.0.0.1:
 * connections that never send a byte, request heads dripped a byte at a time (slowloris), many
 * clients sending large bodies at once, absolute-form targets. Each server must drop the
 * holders in bounded time, keep answering a well-behaved client meanwhile, keep its peak RSS
 * (VmHWM from /proc) bounded and never print a stack trace. Bounds are counts and generous
 * limits, never a measured time.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startCli, stopAllClis, type LiveCli } from '../helpers/cli-live.js';
import { startRawServer } from '../helpers/fault-server.js';

const files = tempDir('reqflow-hostile-clients-');
const SECRET = 'outside-the-mock-folder-4e1a';
const BIG_FILE = 32 * 1024 * 1024;
let mock: LiveCli;
let mockPort = 0;
let proxy: LiveCli;
let proxyPort = 0;

beforeAll(async () => {
  files.write('outside.txt', SECRET);
  files.write('mock/big.bin', Buffer.alloc(BIG_FILE, 0x7a));
  files.write('mock/swapped.json', '{"fine":true}');
  const routes = ['logging: true', 'routes:', '  - {method: GET, path: /users, body: {users: [1, 2]}}', '  - {method: POST, path: /echo, body: "got {{request.body}}"}'];
  // The last route backtracks without end in V8's engine on `/aaaa…c` (2^n tries for n a's).
  const backtracking = '  - {method: GET, path: "/(a+)+b", pathType: regex, body: "matched {{params.1}}"}';
  files.write('mock/api.mock.yaml', [...routes, '  - {method: GET, path: /big, bodyFile: big.bin}', '  - {method: GET, path: /swapped, bodyFile: swapped.json}', backtracking, ''].join('\n'));
  mock = startCli(['mock', 'api.mock.yaml', '--port', '0'], { cwd: join(files.dir, 'mock'), timeoutMs: 240_000 });
  proxy = startCli(['proxy', '--port', '0', '--no-history'], { cwd: files.dir, env: { REQFLOW_STATE_DIR: join(files.dir, 'state') }, timeoutMs: 240_000 });
  mockPort = Number((await mock.waitForStdout(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
  proxyPort = Number((await proxy.waitForStdout(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
});

afterAll(async () => {
  stopAllClis();
  await Promise.allSettled([mock.done, proxy.done]);
  files.cleanup();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw connection that keeps what it received and knows when it was closed. */
/** A client writing raw bytes; `allowHalfOpen`: it does not close its end when the server closes its own. */
function rawClient(port: number, allowHalfOpen = false): { socket: Socket; received: () => string; closed: () => boolean; opened: Promise<void> } {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen });
  let text = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return { socket, received: () => text, closed: () => closed, opened: new Promise((resolve) => socket.once('connect', () => resolve())) };
}

/** Until the socket takes more bytes or closes (the listener left behind is removed: a loop would pile them up). */
function writable(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done).off('close', done);
      resolve();
    };
    socket.on('drain', done).on('close', done);
  });
}

/** One well-behaved request on a connection of its own: the status line's code. */
async function statusOf(port: number, head: string): Promise<string> {
  const client = rawClient(port);
  client.socket.write(head);
  for (let i = 0; i < 200 && !client.closed(); i++) await sleep(50);
  return client.received().slice(9, 12);
}

const GET_USERS = 'GET /users HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

/** The peak resident memory of a process, in MB, from /proc. */
function peakRssMb(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

/**
 * 20 clients that connect and never send, and one that drips its head a byte at a time, against
 * the server on `port`, while a well-behaved client asks now and then: what each saw.
 */
async function holdConnections(port: number, wellBehaved: string, expected: string): Promise<{ drip: ReturnType<typeof rawClient>; idleOpen: number; served: number }> {
  const idle = Array.from({ length: 20 }, () => rawClient(port));
  const drip = rawClient(port);
  await Promise.all([...idle, drip].map((client) => client.opened));
  const head = `GET /users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(2000)}`;
  // Node's own defaults would hold both for a minute and more: 120 drips of 250 ms are 30 s at least.
  let served = 0;
  for (let i = 0; i < 120 && !(drip.closed() && idle.every((client) => client.closed())); i++) {
    if (!drip.closed()) drip.socket.write(head[i] as string);
    if (i % 20 === 0 && (await statusOf(port, wellBehaved)) === expected) served++;
    await sleep(250);
  }
  return { drip, idleOpen: idle.filter((client) => !client.closed()).length, served };
}

describe('clients that hold a connection', () => {
  // Both servers at once: each case waits out the 10 s the servers give a head.
  test('a client that never sends and one that drips its head a byte at a time are both dropped, others served meanwhile (mock and proxy)', async () => {
    const servers = [
      { port: mockPort, expected: '200' },
      { port: proxyPort, expected: '400' }, // origin-form to the proxy: its usage page
    ];
    const results = await Promise.all(servers.map(({ port, expected }) => holdConnections(port, GET_USERS, expected)));
    for (const [i, { drip, idleOpen, served }] of results.entries()) {
      const { port, expected } = servers[i] as { port: number; expected: string };
      expect(drip.closed()).toBe(true);
      expect(drip.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(idleOpen).toBe(0);
      expect(served).toBeGreaterThan(0);
      expect(await statusOf(port, GET_USERS)).toBe(expected);
    }
  }, 60_000);
});

/** Requests no well-behaved client sends: each gets an answer or a closed connection, never a crash. */
const ODD_REQUESTS: Array<[string, string]> = [
  ['CONNECT to a target that is no host', 'CONNECT %zz:80 HTTP/1.1\r\nHost: %zz:80\r\n\r\n'],
  ['CONNECT to a bracketed address that is none', 'CONNECT [1:2:3]:80 HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['Content-Length with Transfer-Encoding', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
  ['two Content-Lengths', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd'],
  ['a chunk size that is not hex', 'POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n'],
  ['an invalid method', 'FR\u00f6B /users HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['HTTP/1.0 without Host', 'GET /users HTTP/1.0\r\n\r\n'],
  ['the asterisk form', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['Expect: 100-continue', 'POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi'],
  ['pipelined requests', GET_USERS.replace('close', 'keep-alive').repeat(50)],
  ['a 1 MB request line', `GET /${'a'.repeat(1024 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['10,000 headers', `GET /users HTTP/1.1\r\nHost: x\r\n${'X-A: b\r\n'.repeat(10_000)}\r\n`],
  ['escape sequences in the target', 'GET /\u001b]0;owned\u0007\u009b2J HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['escape sequences in an absolute-form target', 'GET http://127.0.0.1:1/\u001b[8m HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a percent-encoded traversal', 'GET /%2e%2e%2f%2e%2e%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a backslash traversal', 'GET /..%5c..%5cetc%5cpasswd HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['an overlong UTF-8 traversal', 'GET /%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['an absolute path as the target', 'GET //etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a NUL and a traversal in the path', 'GET /../../etc/passwd%00 HTTP/1.1\r\nHost: x\r\n\r\n'],
];

describe.each([
  ['mock', () => mockPort],
  ['proxy', () => proxyPort],
])('%s: odd requests', (name, port) => {
  test.each(ODD_REQUESTS)(`%s: answered or closed, and the ${name} goes on`, async (_what, request) => {
    const client = rawClient(port());
    client.socket.write(Buffer.from(request, 'latin1'));
    for (let i = 0; i < 200 && !client.closed() && !/\r\n\r\n/.test(client.received()); i++) await sleep(50);
    client.socket.destroy();
    expect(client.received()).not.toMatch(/root:/);
    expect(await statusOf(port(), GET_USERS)).toBe(name === 'mock' ? '200' : '400');
    const server = name === 'mock' ? mock : proxy;
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).not.toMatch(/\n\s+at |TypeError|RangeError/);
    expect(server.stdout() + server.stderr()).not.toMatch(/[\u0007\u001b\u009b]/);
  });
});

describe.each([
  ['mock', () => mockPort, '200'],
  ['proxy', () => proxyPort, '400'],
])('%s: a crowd', (name, port, expected) => {
  test(`500 clients at once, a third of them resetting mid-answer: the ${name} answers the rest and goes on`, async () => {
    const clients = Array.from({ length: 500 }, (_, i) => {
      const client = rawClient(port());
      client.socket.write(GET_USERS);
      if (i % 3 === 0) client.socket.once('data', () => client.socket.resetAndDestroy());
      return client;
    });
    for (let i = 0; i < 600 && !clients.every((client) => client.closed()); i++) await sleep(50);
    const answered = clients.filter((client, i) => i % 3 !== 0 && client.received().slice(9, 12) === expected);
    expect(answered.length).toBe(clients.filter((_, i) => i % 3 !== 0).length);
    expect(await statusOf(port(), GET_USERS)).toBe(expected);
    const server = name === 'mock' ? mock : proxy;
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('mock', () => {
  test('many clients sending 15 MiB bodies at once: refused past a total, the peak RSS stays bounded, the mock keeps answering', async () => {
    const clients = 24;
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const statuses = await Promise.all(
      Array.from({ length: clients }, async () => {
        const client = rawClient(mockPort);
        client.socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${15 * chunk.length}\r\nConnection: close\r\n\r\n`);
        for (let sent = 0; sent < 15 && !client.closed(); sent++) {
          if (!client.socket.write(chunk)) await writable(client.socket);
        }
        for (let i = 0; i < 1200 && !client.closed(); i++) await sleep(50);
        return client.received().slice(9, 12);
      }),
    );
    // Each answered body is held and templated; held all at once they would take gigabytes.
    expect(peakRssMb(mock.child.pid as number)).toBeLessThan(512);
    expect(statuses.filter((status) => status === '200').length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === '503').length).toBeGreaterThan(0);
    // Every refused client reads its refusal: the mock reads on after answering, so no reset throws it away.
    expect(statuses.every((status) => ['200', '503'].includes(status))).toBe(true);
    expect(await statusOf(mockPort, GET_USERS)).toBe('200');
    expect(mock.stderr()).not.toMatch(/\n\s+at /);
  }, 120_000);

  test('many clients asking for a 32 MiB bodyFile and not reading: the file is streamed, the peak RSS stays bounded', async () => {
    const clients = Array.from({ length: 30 }, () => rawClient(mockPort));
    await Promise.all(clients.map((client) => client.opened));
    for (const client of clients) {
      client.socket.pause(); // reads nothing: what was sent waits in buffers
      client.socket.write('GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    }
    // Until every answer has begun (a read file whole would be in memory by then, 30 times).
    for (let i = 0; i < 400 && clients.some((client) => client.socket.readableLength === 0); i++) await sleep(50);
    expect(clients.every((client) => client.socket.readableLength > 0)).toBe(true);
    expect(peakRssMb(mock.child.pid as number)).toBeLessThan(512);
    clients.forEach((client) => client.socket.destroy());
    expect(await statusOf(mockPort, GET_USERS)).toBe('200');
  }, 60_000);

  test('a bodyFile that becomes a link to a file outside the mock folder is not served', async () => {
    const swapped = join(files.dir, 'mock', 'swapped.json');
    const client = rawClient(mockPort);
    client.socket.write('GET /swapped HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    for (let i = 0; i < 200 && !client.closed(); i++) await sleep(50);
    expect(client.received()).toContain('{"fine":true}');
    rmSync(swapped);
    symlinkSync(join(files.dir, 'outside.txt'), swapped);
    const again = rawClient(mockPort);
    again.socket.write('GET /swapped HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    for (let i = 0; i < 200 && !again.closed(); i++) await sleep(50);
    expect(again.received()).toMatch(/^HTTP\/1\.1 500 /);
    expect(again.received()).toContain("leads outside the mock file's folder");
    expect(again.received()).not.toContain(SECRET);
  });

  test('a mock file whose bodyFile leads outside its folder is refused at load (exit 2 naming the field)', async () => {
    const dir = join(files.dir, 'other');
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(files.dir, 'outside.txt'), join(dir, 'link.txt'));
    for (const bodyFile of ['../outside.txt', join(files.dir, 'outside.txt'), 'link.txt']) {
      writeFileSync(join(dir, 'api.mock.yaml'), `routes:\n  - {method: GET, path: /x, bodyFile: '${bodyFile}'}\n`);
      const result = await runCli(['mock', 'api.mock.yaml', '--port', '0'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("api.mock.yaml: routes[0].bodyFile leads outside the mock file's folder");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  test('--from-openapi: a $ref to a file outside the spec\'s folder or to a URL is neither read nor fetched (exit 2 naming it)', async () => {
    let fetched = 0;
    const remote = await startRawServer((socket) => {
      fetched++;
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/yaml\r\nContent-Length: 22\r\n\r\nsecret: "remote-value"');
    });
    const dir = join(files.dir, 'spec');
    mkdirSync(dir, { recursive: true });
    files.write('outside.yaml', `secret: "${SECRET}"\n`);
    try {
      for (const ref of ['../outside.yaml', `${remote.url}/x.yaml`]) {
        const example = `              example:\n                $ref: '${ref}'\n`;
        writeFileSync(join(dir, 'openapi.yaml'), `openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths:\n  /leak:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n${example}`);
        const result = await runCli(['mock', '--from-openapi', 'openapi.yaml', '--port', '0'], { cwd: dir, timeoutMs: 20_000 });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('openapi.yaml: not a readable OpenAPI document');
        expect(result.stdout + result.stderr).not.toContain(SECRET);
      }
      expect(fetched).toBe(0);
    } finally {
      await remote.close();
    }
  });

  test.each([
    ['closes its end when the answer ends', false],
    ['keeps sending after the answer', true],
  ])('an endless chunked body: 413 past 16 MiB that the client can read, then the connection is closed rather than read for ever (a client that %s)', async (_, halfOpen) => {
    const client = rawClient(mockPort, halfOpen);
    client.socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = Buffer.from(`10000\r\n${'a'.repeat(0x10000)}\r\n`);
    // Sends for 20 s at most: the mock stops reading after 2 s.
    const until = Date.now() + 20_000;
    while (!client.closed() && Date.now() < until) {
      if (!client.socket.write(chunk)) await writable(client.socket);
    }
    expect(client.closed()).toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.received()).toContain('request body over 16777216 bytes');
    expect(await statusOf(mockPort, GET_USERS)).toBe('200');
  }, 60_000);

  test('a path made to backtrack against a regex route (`/(a+)+b` and 5,000 a\'s then c) is answered 404 at once, and the mock goes on', async () => {
    const client = rawClient(mockPort);
    client.socket.write(`GET /${'a'.repeat(5000)}c HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    // V8's engine would take longer than the universe has existed; the bound is the loop's 10 s.
    for (let i = 0; i < 200 && !client.closed(); i++) await sleep(50);
    expect(client.received()).toMatch(/^HTTP\/1\.1 404 /);
    const matching = rawClient(mockPort);
    matching.socket.write('GET /aaab HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    for (let i = 0; i < 200 && !matching.closed(); i++) await sleep(50);
    expect(matching.received()).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\r\nmatched aaa$/);
    expect(await statusOf(mockPort, GET_USERS)).toBe('200');
  });

  test('an absolute-form target is matched by its path', async () => {
    const client = rawClient(mockPort);
    client.socket.write('GET http://127.0.0.1/users?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    for (let i = 0; i < 200 && !client.closed(); i++) await sleep(50);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received()).toContain('{"users":[1,2]}');
  });
});
