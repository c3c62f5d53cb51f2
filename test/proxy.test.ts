/**
 * Proxies end to end with the built CLI: a forwarding and CONNECT proxy (the `proxy` package)
 * and a SOCKS5 server (@pondwader/socks5-server) on 127.0.0.1, every request through a proxy
 * seen by it and none that NO_PROXY exempts; proxy credentials masked; TLS to the server
 * verified end to end through CONNECT.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createSocksServer } from '@pondwader/socks5-server';
import { createProxy } from 'proxy';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { startTlsServer, type TlsServer } from './servers/tls-server.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its TLS target uses certificates made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

const tmp = tempDir('reqflow-proxy-');
let target: Recorder;
let tlsTarget: TlsServer;
let certs: TestCerts;
let proxy: Server;
let proxyUrl = '';
let authProxy: Server;
let authProxyPort = 0;
let socks: ReturnType<typeof createSocksServer>;
let socksPort = 0;
const proxied: string[] = [];
const socksed: string[] = [];

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  certs = makeCerts();
  target = await startRecorder();
  tlsTarget = await startTlsServer({ cert: certs.server.cert, key: certs.server.key });
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
  await new Promise<void>((resolve) => socks.listen(0, '127.0.0.1', () => resolve()));
  socksPort = ((socks as unknown as { server: import('node:net').Server }).server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const server of [proxy, authProxy]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  socks.close();
  await target.close();
  await tlsTarget.close();
  certs.cleanup();
  tmp.cleanup();
});

const file = (name: string, url: string): string => tmp.write(name, `GET ${url}\n`);
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['run', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), ...env } });

describe('proxies from the environment', () => {
  test('http_proxy: the request goes through the proxy; -v says so', async () => {
    const before = proxied.length;
    const result = await run([file('env.http', `${target.url}/via-env`), '-v'], { http_proxy: proxyUrl });
    expect(result.code).toBe(0);
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/via-env`]);
    expect(result.stderr).toContain(`reqflow: ${target.url} through the proxy ${proxyUrl}/`);
  });

  test('HTTP_PROXY in upper case, all_proxy as the fallback', async () => {
    const before = proxied.length;
    await run([file('upper.http', `${target.url}/upper`)], { HTTP_PROXY: proxyUrl });
    await run([file('all.http', `${target.url}/all`)], { all_proxy: proxyUrl });
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/upper`, `GET ${target.url}/all`]);
  });

  test.each([
    ['the host', () => '127.0.0.1'],
    ['the host and its port', () => `127.0.0.1:${new URL(target.url).port}`],
    ['a CIDR range', () => '127.0.0.0/8'],
    ['*', () => '*'],
  ])('NO_PROXY with %s: direct, the proxy sees nothing', async (_what, noProxyOf) => {
    const noProxy = noProxyOf();
    const before = proxied.length;
    const received = target.received.length;
    const result = await run([file('direct.http', `${target.url}/direct`)], { http_proxy: proxyUrl, NO_PROXY: noProxy });
    expect(result.code).toBe(0);
    expect(proxied.length).toBe(before);
    expect(target.received.length).toBe(received + 1);
  });

  test('no_proxy for another port or another domain still goes through the proxy', async () => {
    const before = proxied.length;
    await run([file('other.http', `${target.url}/other`)], { http_proxy: proxyUrl, no_proxy: '127.0.0.1:1,example.com,.internal' });
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/other`]);
  });

  // Each host is one the rule names, written another way: a request the list exempts never goes
  // through the proxy (it went there). The hosts resolve to nothing or to no server: what counts
  // is that the proxy saw nothing and the failure, if any, names the host, not the proxy.
  test.each([
    ['a trailing dot on the rule (curl ignores it)', 'localhost.', 'localhost'],
    ['a trailing dot on the URL\'s host (curl ignores it)', 'localhost', 'localhost.'],
    ['a wildcard with a trailing dot', '*.localhost.', 'api.localhost'],
    ['an IPv6 address spelled out', '0:0:0:0:0:0:0:1', '[::1]'],
    ['an IPv6 address spelled out, with the port', '[0:0:0:0:0:0:0:1]:PORT', '[::1]'],
    ['an international name, as written', 'bücher.localhost', 'bücher.localhost'],
    ['an international name, as written, for a subdomain', 'BÜCHER.localhost', 'www.bücher.localhost'],
    ['an IPv4 address in short form', '127.1', '127.0.0.1'],
  ])('NO_PROXY with %s: the proxy sees nothing', async (_what, rule, host) => {
    const port = new URL(target.url).port;
    const before = proxied.length;
    const result = await run([file('spelled.http', `http://${host}:${port}/spelled`)], { http_proxy: proxyUrl, no_proxy: `example.com,${rule.replace('PORT', port)}` });
    expect(proxied.slice(before)).toEqual([]);
    expect(result.stderr).not.toContain('proxy');
    expect([0, 4]).toContain(result.code);
  });

  test('a CIDR range that is none (a prefix past the address\'s bits) is exit 2 naming it, before anything is sent (it was an internal error)', async () => {
    const before = proxied.length;
    const received = target.received.length;
    for (const [rule, bits] of [['127.0.0.1/33', 32], ['::1/129', 128], ['10.0.0.0/x', 32]] as const) {
      const result = await run([file('range.http', `${target.url}/range`)], { http_proxy: proxyUrl, no_proxy: `localhost,${rule}` });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`reqflow: no_proxy: "${rule}" is not an IP range\nhint: an address and the bits of its prefix, 0–${bits}: 10.0.0.0/8, fd00::/8\n`);
    }
    const flag = await run([file('range.http', `${target.url}/range`), '--noproxy', '127.0.0.0/40'], { http_proxy: proxyUrl });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('reqflow: --noproxy: "127.0.0.0/40" is not an IP range\n');
    expect(proxied.length).toBe(before);
    expect(target.received.length).toBe(received);
  });

  test('a rule for another host written those ways still leaves it to the proxy', async () => {
    const before = proxied.length;
    await run([file('others.http', `${target.url}/others`)], { http_proxy: proxyUrl, no_proxy: 'localhost.,127.2,0:0:0:0:0:0:0:2,127.0.0.2/32' });
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/others`]);
  });

  test('an IP address matches only itself: 0.0.1 or .0.0.1 is no suffix of 127.0.0.1 (as curl reads it)', async () => {
    const before = proxied.length;
    await run([file('ip-suffix.http', `${target.url}/ip-suffix`)], { http_proxy: proxyUrl, no_proxy: '0.0.1,.0.0.1' });
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/ip-suffix`]);
  });
});

describe('--proxy and --noproxy', () => {
  test('--proxy wins over the environment; --proxy "" goes direct', async () => {
    const before = proxied.length;
    await run([file('flag.http', `${target.url}/flag`), '--proxy', proxyUrl], { http_proxy: 'http://127.0.0.1:1' });
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/flag`]);
    const direct = await run([file('none.http', `${target.url}/none`), '--proxy', ''], { http_proxy: 'http://127.0.0.1:1' });
    expect(direct.code).toBe(0);
    expect(proxied.length).toBe(before + 1);
  });

  test('a proxy with credentials: they get through, the password never shows; a wrong one is a 407', async () => {
    const good = await run([file('auth.http', `${target.url}/auth`), '-v', '--proxy', `http://proxyuser:pr0xy-s3cret@127.0.0.1:${authProxyPort}`]);
    expect(good.code).toBe(0);
    expect(good.stderr).toContain(`through the proxy http://proxyuser:•••@127.0.0.1:${authProxyPort}/`);
    expect(good.stdout + good.stderr).not.toContain('pr0xy-s3cret');
    const bad = await run([file('auth.http', `${target.url}/auth`), '--proxy', `http://proxyuser:wrong-pass@127.0.0.1:${authProxyPort}`]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('407');
  });

  test('a proxy URL with a user name alone (a token) never shows it: -v, errors over HTTP/1.1 and HTTP/2, -o json', async () => {
    const token = 'TOKEN1234567890';
    const verbose = await run([file('token.http', `${target.url}/token`), '-v', '--proxy', `http://${token}@127.0.0.1:${new URL(proxyUrl).port}`]);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain(`through the proxy http://•••@127.0.0.1:${new URL(proxyUrl).port}/`);
    const refused = await run([file('token.http', `${target.url}/token`), '-o', 'json', '--proxy', `http://${token}@127.0.0.1:9`]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('connection refused by the proxy http://•••@127.0.0.1:9/');
    const tunnel = await run([tmp.write('token2.http', `GET ${target.url}/token HTTP/2\n`), '--proxy', `http://${token}@127.0.0.1:${authProxyPort}`]);
    expect(tunnel.code).toBe(4);
    expect(tunnel.stderr).toContain(`the proxy http://•••@127.0.0.1:${authProxyPort}/ refused a tunnel`);
    for (const result of [verbose, refused, tunnel]) expect(`${result.stdout}${result.stderr}`).not.toContain(token);
  });

  test('https through CONNECT: the server\'s certificate is checked end to end (trusted CA: ok; -k not needed)', async () => {
    const before = proxied.length;
    const https = tmp.write('tls.http', `# @tls.caFile ${certs.ca.cert}\nGET ${tlsTarget.url}/secure\n`);
    const result = await run([https, '--proxy', proxyUrl]);
    expect(result.code).toBe(0);
    expect(proxied.slice(before)).toEqual([`CONNECT 127.0.0.1:${tlsTarget.port}`]);
    const untrusted = await run([file('untrusted.http', `${tlsTarget.url}/secure`), '--proxy', proxyUrl]);
    expect(untrusted.code).toBe(5);
  });

  test('socks5h: through the SOCKS server', async () => {
    const before = socksed.length;
    const result = await run([file('socks.http', `${target.url}/socks`), '--proxy', `socks5h://127.0.0.1:${socksPort}`]);
    expect(result.code).toBe(0);
    expect(socksed.slice(before)).toEqual([`127.0.0.1:${new URL(target.url).port}`]);
  });

  test.each([['HTTP/1.1', ''], ['HTTP/2', ' HTTP/2']])('%s over socks5:// (names resolved here): a URL host that does not resolve is named as that host; a SOCKS proxy that is not there is named as the proxy', async (_version, suffix) => {
    const unresolved = await run([tmp.write('nx.http', `GET http://no-such-host.invalid/x${suffix}\n`), '--proxy', `socks5://127.0.0.1:${socksPort}`]);
    expect(unresolved.code).toBe(4);
    expect(unresolved.stderr).toMatch(/^reqflow: cannot resolve host "no-such-host\.invalid" \(DNS lookup failed\)\n/);
    const refused = await run([tmp.write('refused.http', `GET ${target.url}/x${suffix}\n`), '--proxy', 'socks5://127.0.0.1:9']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^reqflow: connection refused by the proxy socks5:\/\/127\.0\.0\.1:9\n/);
  });

  test('a proxy URL that is not one is exit 2 naming the flag or the variable', async () => {
    const flag = await run([file('bad.http', `${target.url}/x`), '--proxy', 'ftp://127.0.0.1:21']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--proxy: unsupported proxy scheme "ftp"');
    const env = await run([file('bad.http', `${target.url}/x`)], { https_proxy: 'http://[bad' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('https_proxy: not a proxy URL');
  });

  test("a proxy URL that does not parse never shows its credentials: a password holding '/', no scheme, a request's # @proxy", async () => {
    const slash = await run([file('slash.http', `${target.url}/x`), '--proxy', 'http://user:s3cr3t/pw@proxy.example:3128']);
    expect(slash.code).toBe(2);
    expect(slash.stderr).toContain('--proxy: not a proxy URL: "http://•••@proxy.example:3128"');
    const annotated = await run([tmp.write('annotated.http', `GET ${target.url}/x\n# @proxy user:hunter22@bad host:3128\n`)]);
    expect(annotated.code).toBe(2);
    expect(annotated.stderr).toContain('not a proxy URL: "•••@bad host:3128"');
    for (const said of [slash.stderr, annotated.stderr]) expect(said).not.toMatch(/s3cr3t|hunter22/);
  });
});

describe('the profile\'s proxy and noProxy', () => {
  const withProfiles = (profiles: unknown[]): string => tmp.write('proxied.profiles.json', JSON.stringify({ profiles }));

  test('"proxy" sends the profile\'s requests through it (over the environment); --proxy wins; "noProxy" exempts hosts', async () => {
    const profiles = withProfiles([
      { name: 'corp', proxy: proxyUrl },
      { name: 'corp-direct', proxy: proxyUrl, noProxy: '127.0.0.1' },
    ]);
    const before = proxied.length;
    const viaProfile = await run([file('profile.http', `${target.url}/via-profile`), '--profiles', profiles, '-p', 'corp'], { http_proxy: 'http://127.0.0.1:1' });
    expect(viaProfile.code).toBe(0);
    expect(proxied.slice(before)).toEqual([`GET ${target.url}/via-profile`]);
    const flagWins = await run([file('profile.http', `${target.url}/flag-wins`), '--profiles', profiles, '-p', 'corp', '--proxy', '']);
    expect(flagWins.code).toBe(0);
    const received = target.received.length;
    const exempt = await run([file('profile.http', `${target.url}/exempt`), '--profiles', profiles, '-p', 'corp-direct']);
    expect(exempt.code).toBe(0);
    expect(target.received.length).toBe(received + 1);
    expect(proxied.length).toBe(before + 1);
  });

  test('a profile proxy that is not a URL is exit 2 naming the profile', async () => {
    const profiles = withProfiles([{ name: 'broken', proxy: 'ftp://127.0.0.1:21' }]);
    const result = await run([file('profile.http', `${target.url}/x`), '--profiles', profiles, '-p', 'broken']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profile "broken": proxy: unsupported proxy scheme "ftp"');
  });
});

describe('OAuth calls go through the same proxy', () => {
  test('a client-credentials token is fetched through the profile\'s proxy, then the request goes through it too', async () => {
    const tokens = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ access_token: 'tok-through-proxy', token_type: 'Bearer', expires_in: 3600 }));
      });
    });
    const tokenUrl = `http://127.0.0.1:${await listen(tokens)}/token`;
    try {
      const profiles = tmp.write('oauth.profiles.json', JSON.stringify({ profiles: [{ name: 'machine', proxy: proxyUrl, oauth: { grant: 'client_credentials', tokenUrl, clientId: 'reqflow-machine', clientSecret: 'machine-s3cret', clientAuth: 'post' } }] }));
      const api = tmp.write('oauth-api.http', `GET ${target.url}/with-token\nAuthorization: Bearer {{token}}\n`);
      const before = proxied.length;
      const received = target.received.length;
      const result = await run([api, '--profiles', profiles, '-p', 'machine'], { REQFLOW_STATE_DIR: join(tmp.dir, 'oauth-state') });
      expect(result).toMatchObject({ code: 0 });
      expect(proxied.slice(before)).toEqual([`POST ${tokenUrl}`, `GET ${target.url}/with-token`]);
      expect(target.received.slice(received).map((r) => r.headers.authorization)).toEqual(['Bearer tok-through-proxy']);
    } finally {
      await new Promise((resolve) => tokens.close(resolve));
    }
  });
});

test('through a working CONNECT proxy, an https:// server that answers with what is not HTTP is named as that server, not the proxy', async () => {
  const { createServer } = await import('node:tls');
  const garbage = createServer({ cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key) }, (socket) => socket.once('data', () => socket.end('GARBAGE\r\n\r\n')));
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  try {
    const port = (garbage.address() as AddressInfo).port;
    const result = await run([file('tls-garbage.http', `https://127.0.0.1:${port}/g`), '-k'], { https_proxy: proxyUrl });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`reqflow: 127.0.0.1:${port} did not answer with valid HTTP`);
    expect(result.stderr).not.toContain('the proxy');
  } finally {
    await new Promise((resolve) => garbage.close(resolve));
  }
});

test('a proxy that answers with what is not HTTP is named as the proxy, not the server behind it (http:// and a CONNECT for https://)', async () => {
  const { createServer } = await import('node:net');
  const garbage = createServer((socket) => socket.once('data', () => socket.end('\u0000\u0001GARBAGE\r\n\r\n')));
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  try {
    const proxy = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    for (const [name, url, variable] of [['garbage-http.http', `${target.url}/g`, 'http_proxy'], ['garbage-https.http', 'https://127.0.0.1:9/g', 'https_proxy']] as const) {
      const result = await run([file(name, url), '-k'], { [variable]: proxy });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`reqflow: the proxy ${proxy}/ did not answer with valid HTTP\nhint: is it an HTTP proxy?`);
    }
  } finally {
    await new Promise((resolve) => garbage.close(resolve));
  }
});
