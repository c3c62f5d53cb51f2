/**
 * Tunnels through proxies, against real servers on 127.0.0.1: a CONNECT proxy (the `proxy`
 * package, with and without credentials) and a SOCKS5 server in front of Node's HTTP/2 servers
 * over TLS (ALPN, the test CA) and h2c. HTTP/2 goes over a tunnel to the server, so the proxy
 * sees a CONNECT (or a SOCKS connect) and never the request itself; the server sees HTTP/2.
 * Inside a tunnel the server's certificate is checked against the URL's own host, an IP
 * address included (a certificate for "localhost" does not pass for https://127.0.0.1).
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createSecureServer, createServer as createH2cServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createSocksServer } from '@pondwader/socks5-server';
import { createProxy } from 'proxy';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { track } from './helpers/fault-server.js';
import { parseRecords } from './helpers/records.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its servers use certificates made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

const tmp = tempDir('reqflow-h2-proxy-');
let certs: TestCerts;
const h2servers: Http2Server[] = [];
let h2 = '';
let h2only = '';
let h2c = '';
let h1 = '';
let h1server: Server;
/** HTTP/1.1 and HTTP/2 over TLS with a certificate for DNS:localhost only, and one for IP:127.0.0.1 only (self-signed). */
let localhostOnly = '';
let ipOnly = '';
let proxy: Server;
let proxyUrl = '';
let authProxy: Server;
let authProxyPort = 0;
let socks: ReturnType<typeof createSocksServer>;
let socksPort = 0;
/**
 * A CONNECT proxy and a SOCKS5 server that wait for the server's first bytes (an h2c server's
 * SETTINGS) and send them in one write with their own answer, as a proxy may; and a proxy that
 * accepts connections and never answers.
 */
let eagerProxy: Server;
let eagerProxyUrl = '';
let eagerSocks: ReturnType<typeof createSocksServer>;
let eagerSocksPort = 0;
let silent: NetServer;
let silentPort = 0;
/** How many connections `silent` has accepted: each test's own says its case is real. */
let silentAccepted = 0;
/** What the proxies saw: `CONNECT host:port`, or `GET url` for a forwarded request. */
const proxied: string[] = [];
const socksed: string[] = [];
/** HTTP/2 streams each server answered, by path. */
const answered: string[] = [];

function handler(req: Http2ServerRequest, res: Http2ServerResponse): void {
  answered.push(`${req.httpVersion} ${req.url}`);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ version: req.httpVersion, path: req.url, authority: req.headers[':authority'] }));
}

/** Every socket the servers here accept: a tunnel a test leaves open would outlive the tests (and keep the jest worker alive). */
const accepted = new Set<Socket>();

const listen = async (server: Server | Http2Server | NetServer): Promise<number> => {
  track(server, accepted);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  certs = makeCerts();
  const tls = { cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key) };
  const serve = async (server: Http2Server, scheme: string): Promise<string> => {
    h2servers.push(server);
    return `${scheme}://127.0.0.1:${await listen(server)}`;
  };
  h2 = await serve(createSecureServer({ ...tls, allowHTTP1: true }, handler), 'https');
  h2only = await serve(createSecureServer(tls, handler), 'https');
  h2c = await serve(createH2cServer(handler), 'http');
  h1server = createHttpServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: req.httpVersion, path: req.url })));
  h1 = `http://127.0.0.1:${await listen(h1server)}`;
  const only = (pair: { cert: string; key: string }) => createSecureServer({ cert: readFileSync(pair.cert), key: readFileSync(pair.key), allowHTTP1: true }, handler);
  localhostOnly = await serve(only(certs.localhostOnlyServer), 'https');
  ipOnly = await serve(only(certs.selfSigned), 'https');
  proxy = createProxy(createHttpServer());
  proxy.on('request', (req: IncomingMessage) => proxied.push(`${req.method} ${req.url}`));
  proxy.on('connect', (req: IncomingMessage) => proxied.push(`CONNECT ${req.url}`));
  proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
  authProxy = createProxy(createHttpServer());
  (authProxy as unknown as { authenticate: (req: IncomingMessage) => boolean }).authenticate = (req) => req.headers['proxy-authorization'] === `Basic ${Buffer.from('proxyuser:pr0xy-s3cret').toString('base64')}`;
  authProxyPort = await listen(authProxy);
  socks = createSocksServer();
  socks.setRulesetValidator((conn: { destAddress: string; destPort: number }) => {
    socksed.push(`${conn.destAddress}:${conn.destPort}`);
    return true;
  });
  track((socks as unknown as { server: NetServer }).server, accepted);
  await new Promise<void>((resolve) => socks.listen(0, '127.0.0.1', () => resolve()));
  socksPort = ((socks as unknown as { server: NetServer }).server.address() as AddressInfo).port;
  /** Connects to host:port; `then` gets the server's first bytes and the connection, the tunnel is spliced after. */
  const firstBytes = (host: string, port: number, client: Socket, then: (first: Buffer) => void): void => {
    const upstream = netConnect(port, host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy()); // the client gone, the tunnel is too
    upstream.once('data', (first: Buffer) => {
      then(first);
      client.pipe(upstream).pipe(client);
    });
  };
  eagerProxy = createHttpServer();
  eagerProxy.on('connect', (req: IncomingMessage, client: Socket) => {
    const [host = '', port = ''] = (req.url ?? '').split(':');
    firstBytes(host, Number(port), client, (first) => client.write(Buffer.concat([Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n'), first])));
  });
  eagerProxyUrl = `http://127.0.0.1:${await listen(eagerProxy)}`;
  eagerSocks = createSocksServer();
  eagerSocks.setConnectionHandler((conn, sendStatus) => {
    const client = conn.socket as Socket;
    firstBytes(conn.destAddress, conn.destPort, client, (first) => {
      client.cork(); // the reply and the server's bytes in one write
      sendStatus('REQUEST_GRANTED');
      client.write(first);
      client.uncork();
    });
  });
  track((eagerSocks as unknown as { server: NetServer }).server, accepted);
  await new Promise<void>((resolve) => eagerSocks.listen(0, '127.0.0.1', () => resolve()));
  eagerSocksPort = ((eagerSocks as unknown as { server: NetServer }).server.address() as AddressInfo).port;
  silent = createNetServer((socket) => {
    silentAccepted += 1;
    socket.on('error', () => undefined);
  });
  silentPort = await listen(silent);
  tmp.write('.profiles.json', JSON.stringify({ profiles: [{ name: 'default', tls: { caFile: certs.ca.cert } }, { name: 'ip', tls: { caFile: certs.selfSigned.cert } }] }));
});
afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  for (const server of [proxy, authProxy, h1server, eagerProxy]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  socks.close();
  eagerSocks.close();
  silent.close();
  await Promise.all(h2servers.map((server) => new Promise((resolve) => server.close(resolve))));
  certs.cleanup();
  tmp.cleanup();
});

let files = 0;
const run = (text: string, ...args: string[]) => {
  const file = tmp.write(`r${(files += 1)}.http`, text.replaceAll('H2ONLY', h2only).replaceAll('H2C', h2c).replaceAll('H2', h2));
  return runCli(['run', file, ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
};
const hostOf = (url: string): string => new URL(url).host;

describe('HTTP/2 through an HTTP proxy: a CONNECT tunnel to the server', () => {
  test('the request line says HTTP/2: every request of the file on one tunnel, the proxy sees only the CONNECT, -v names the proxy', async () => {
    const before = proxied.length;
    const result = await run('GET H2/a HTTP/2\n\n###\nGET H2/b HTTP/2\n', '--proxy', proxyUrl, '-o', 'json', '-v');
    expect(result.code).toBe(0);
    const records = parseRecords(result.stdout);
    expect(records.map((record) => [record.httpVersion, (record.body as { version: string; path: string }).path])).toEqual([['2', '/a'], ['2', '/b']]);
    expect(proxied.slice(before)).toEqual([`CONNECT ${hostOf(h2)}`]);
    expect(result.stderr).toContain(`reqflow: ${h2} through the proxy ${proxyUrl}/`);
  });

  test('h2c with prior knowledge goes through a tunnel too (a forwarding proxy speaks HTTP/1.1)', async () => {
    const before = proxied.length;
    const result = await run('GET H2C/clear HTTP/2\n', '--proxy', proxyUrl, '-o', 'json');
    expect(result.code).toBe(0);
    expect(parseRecords(result.stdout)[0]).toMatchObject({ httpVersion: '2', body: { version: '2.0', path: '/clear' } });
    expect(proxied.slice(before)).toEqual([`CONNECT ${hostOf(h2c)}`]);
  });

  test('--http2 through the proxy: HTTP/2 by ALPN over the tunnel for https; an http:// URL stays HTTP/1.1, forwarded', async () => {
    const before = proxied.length;
    const tls = await run('GET H2/pref\n', '--http2', '--proxy', proxyUrl, '-o', 'json');
    expect(tls.code).toBe(0);
    expect(parseRecords(tls.stdout)[0]).toMatchObject({ httpVersion: '2', body: { version: '2.0' } });
    expect(proxied.slice(before)).toEqual([`CONNECT ${hostOf(h2)}`]);
    const clear = await runCli(['run', tmp.write('clear.http', `GET ${h1}/clear\n`), '--http2', '--proxy', proxyUrl, '-o', 'json'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(clear.code).toBe(0);
    expect(parseRecords(clear.stdout)[0]).toMatchObject({ httpVersion: '1.1', body: { version: '1.1', path: '/clear' } });
    expect(proxied.slice(before + 1)).toEqual([`GET ${h1}/clear`]);
  });

  test('an https server that speaks only HTTP/2 works through the proxy with no flag', async () => {
    const before = answered.length;
    const result = await run('GET H2ONLY/only\n', '--proxy', proxyUrl, '-o', 'json');
    expect(result.code).toBe(0);
    expect(parseRecords(result.stdout)[0]).toMatchObject({ httpVersion: '2', body: { path: '/only' } });
    expect(answered.slice(before)).toEqual(['2.0 /only']);
  });

  test('proxy credentials open the tunnel and never show; without them the refusal is named (exit 4), nothing reaches the server', async () => {
    const good = await run('GET H2/auth HTTP/2\n', '--proxy', `http://proxyuser:pr0xy-s3cret@127.0.0.1:${authProxyPort}`, '-o', 'json', '-v');
    expect(good.code).toBe(0);
    expect(parseRecords(good.stdout)[0]).toMatchObject({ httpVersion: '2' });
    expect(`${good.stdout}${good.stderr}`).not.toContain('pr0xy-s3cret');
    const before = answered.length;
    const refused = await run('GET H2/refused HTTP/2\n', '--proxy', `http://127.0.0.1:${authProxyPort}`);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^reqflow: the proxy http:\/\/127\.0\.0\.1:\d+\/ refused a tunnel to 127\.0\.0\.1:\d+: 407 Proxy Authentication Required\nhint: the proxy wants credentials/);
    expect(answered.length).toBe(before);
  });

  test('a proxy that is not there is named as the proxy, not as the server', async () => {
    const result = await run('GET H2/none HTTP/2\n', '--proxy', 'http://127.0.0.1:9');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^reqflow: connection refused by the proxy http:\/\/127\.0\.0\.1:9\/\n/);
    const http1 = await run('GET H2/none\n', '--proxy', 'http://127.0.0.1:9');
    expect(http1.code).toBe(4);
    expect(http1.stderr).toMatch(/^reqflow: connection refused by the proxy http:\/\/127\.0\.0\.1:9\/\n/);
  });
});

describe('HTTP/2 through SOCKS5', () => {
  test('socks5h: the tunnel is the SOCKS connection; TLS and ALPN end to end with the server', async () => {
    const before = socksed.length;
    const result = await run('GET H2/socks HTTP/2\n', '--proxy', `socks5h://127.0.0.1:${socksPort}`, '-o', 'json');
    expect(result.code).toBe(0);
    expect(parseRecords(result.stdout)[0]).toMatchObject({ httpVersion: '2', body: { version: '2.0', path: '/socks' } });
    expect(socksed.slice(before)).toEqual([hostOf(h2)]);
  });
});

describe('a server that speaks first: its bytes come in the packet of the proxy\'s answer', () => {
  test.each([
    ['CONNECT', () => eagerProxyUrl],
    ['SOCKS5', () => `socks5://127.0.0.1:${eagerSocksPort}`],
  ])('%s: h2c gets the server\'s SETTINGS and answers', async (_kind, proxyUrlOf) => {
    const result = await run('GET H2C/first HTTP/2\n', '--proxy', proxyUrlOf(), '-o', 'json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(parseRecords(result.stdout)[0]).toMatchObject({ httpVersion: '2', body: { version: '2.0', path: '/first' } });
  });
});

describe('a connection that never opens ends at the connection time-out (exit 4), and so does the process', () => {
  /**
   * Exit 4 from the process itself: the silent server never closes its side and the default
   * --timeout is 30 s, so a process held by the connection (or a timer) is killed by runCli at 20 s.
   */
  const expectEndedByItself = (result: { code: number | null; signal: NodeJS.Signals | null }): void => expect([result.code, result.signal]).toEqual([4, null]);

  test.each([
    ['h2c through a CONNECT proxy', 'H2C', 'http'],
    ['TLS through a CONNECT proxy', 'H2', 'http'],
    ['h2c through SOCKS5', 'H2C', 'socks5'],
  ])('%s that never answers', async (_kind, server, scheme) => {
    const accepted = silentAccepted;
    const result = await run(`# @connection-timeout 500 ms\nGET ${server}/silent HTTP/2\n`, '--proxy', `${scheme}://127.0.0.1:${silentPort}`);
    expectEndedByItself(result);
    expect(result.stderr).toMatch(/^reqflow: GET http\S+\/silent: no connection within 500 ms\n/);
    expect(silentAccepted).toBeGreaterThan(accepted);
  });

  test('direct: an https server that never answers the TLS handshake', async () => {
    const accepted = silentAccepted;
    const result = await run(`# @connection-timeout 500 ms\nGET https://127.0.0.1:${silentPort}/silent HTTP/2\n`);
    expectEndedByItself(result);
    expect(result.stderr).toMatch(/no connection within 500 ms/);
    expect(silentAccepted).toBeGreaterThan(accepted);
  });
});

describe('inside a tunnel the certificate is checked against the URL\'s host', () => {
  test.each([['HTTP/1.1', ''], ['HTTP/2', ' HTTP/2']])('%s: a certificate for "localhost" is refused for https://127.0.0.1 (exit 5); one for the IP passes', async (_version, suffix) => {
    const wrong = await run(`GET ${localhostOnly}/x${suffix}\n`, '--proxy', proxyUrl);
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toMatch(/host name mismatch/);
    const right = await runCli(['run', tmp.write(`ip${suffix.length}.http`, `GET ${ipOnly}/ip${suffix}\n`), '--proxy', proxyUrl, '-o', 'json', '-p', 'ip'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(right.code).toBe(0);
    expect(parseRecords(right.stdout)[0]).toMatchObject({ body: { path: '/ip' } });
  });
});
