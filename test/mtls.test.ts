/**
 * Mutual TLS that works: a Node https server requiring a client certificate from the test CA,
 * reached with the TLS settings in every place they can be written.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import { cpSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { expectCleanFailure } from './helpers/expect-error.js';
import { diagnostics, expectNoSecrets, expectQuietSuccess, project, type Project } from './helpers/auth-project.js';
import { startTlsServer, type TlsServer } from './servers/tls-server.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its certificates are made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

let certs: TestCerts;
let mtls: TlsServer;
let selfSigned: TlsServer;
let p: Project;

beforeAll(async () => {
  certs = makeCerts();
  [mtls, selfSigned] = await Promise.all([
    startTlsServer({ cert: certs.server.cert, key: certs.server.key, clientCa: certs.ca.cert }),
    startTlsServer({ cert: certs.selfSigned.cert, key: certs.selfSigned.key }),
  ]);
});
afterAll(async () => {
  await Promise.all([mtls.close(), selfSigned.close()]);
  certs.cleanup();
});
beforeEach(() => {
  p = project();
  // The project keeps its certificates in ./certs; request files live in ./requests.
  cpSync(certs.dir, join(p.dir, 'certs'), { recursive: true });
});
afterEach(() => p.cleanup());

const CLIENT_CN = '"client": "reqflow test client"';

describe('mutual TLS: where the settings come from', () => {
  test('profile tls: paths relative to .profiles.json, not to the request file', async () => {
    p.profiles([{ name: 'dev', tls: { certFile: 'certs/client.pem', keyFile: 'certs/client.key', caFile: './certs/ca.pem' } }]);
    p.write('requests/api.http', `GET ${mtls.url}/me\n`);
    const result = await p.run(['run', 'requests/api.http']);
    expectQuietSuccess(result);
    expect(result.stdout).toContain(CLIENT_CN);
  });

  test('# @tls.* annotations: paths relative to the request file', async () => {
    p.write('requests/api.http', `# @tls.certFile ../certs/client.pem\n# @tls.keyFile ../certs/client.key\n# @tls.caFile ../certs/ca.pem\nGET ${mtls.url}/me\n`);
    const result = await p.run(['run', 'requests/api.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
  });

  test('a tls object in a YAML request and in a JSON request', async () => {
    p.write('requests/api.yaml', `name: me\nurl: ${mtls.url}/me\ntls:\n  certFile: ../certs/client.pem\n  keyFile: ../certs/client.key\n  caFile: ../certs/ca.pem\n`);
    p.write('requests/api.json', JSON.stringify({ name: 'me', url: `${mtls.url}/me`, tls: { certFile: '../certs/client.pem', keyFile: '../certs/client.key', caFile: '../certs/ca.pem' } }));
    for (const file of ['requests/api.yaml', 'requests/api.json']) {
      const result = await p.run(['run', file]);
      expectQuietSuccess(result);
      expect(result.stdout).toContain(CLIENT_CN);
    }
  });

  test("the request's tls overrides the profile's field by field", async () => {
    // The profile names a client the server does not trust; the request swaps in the right
    // certificate and key but keeps the profile's caFile.
    p.profiles([{ name: 'dev', tls: { certFile: 'certs/other-client.pem', keyFile: 'certs/other-client.key', caFile: 'certs/ca.pem' } }]);
    p.write('requests/profile-only.http', `GET ${mtls.url}/me\n`);
    p.write('requests/override.http', `# @tls.certFile ../certs/client.pem\n# @tls.keyFile ../certs/client.key\nGET ${mtls.url}/me\n`);
    expect((await p.run(['run', 'requests/profile-only.http'])).code).toBe(5);
    const result = await p.run(['run', 'requests/override.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
  });

  test('a request pfxFile replaces the profile certFile/keyFile (and the reverse)', async () => {
    p.profiles([{ name: 'dev', variables: { p12pass: certs.passphrase }, tls: { certFile: 'certs/other-client.pem', keyFile: 'certs/other-client.key', caFile: 'certs/ca.pem' } }]);
    p.write('requests/p12.http', `# @tls.pfxFile ../certs/client.p12\n# @tls.passphrase {{p12pass}}\nGET ${mtls.url}/me\n`);
    const result = await p.run(['run', 'requests/p12.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
    // The reverse: the profile's (good) bundle loses to the request's (untrusted) PEM pair.
    p.profiles([{ name: 'dev', variables: { p12pass: certs.passphrase }, tls: { pfxFile: 'certs/client.p12', passphrase: '{{p12pass}}', caFile: 'certs/ca.pem' } }]);
    p.write('requests/pem.http', `# @tls.certFile ../certs/other-client.pem\n# @tls.keyFile ../certs/other-client.key\nGET ${mtls.url}/me\n`);
    p.write('requests/plain.http', `GET ${mtls.url}/me\n`);
    expect((await p.run(['run', 'requests/plain.http'])).code).toBe(0);
    expect((await p.run(['run', 'requests/pem.http'])).code).toBe(5);
  });

  test('~ and {{variables}} in paths', async () => {
    p.profiles([{ name: 'dev', variables: { certDir: join(p.dir, 'certs') }, tls: { certFile: '~/certs/client.pem', keyFile: '{{certDir}}/client.key', caFile: '{{certDir}}/ca.pem' } }]);
    p.write('api.http', `GET ${mtls.url}/me\n`);
    const result = await p.run(['run', 'api.http'], { HOME: p.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
  });

  test('one PEM file holding certificate and key needs no keyFile (like curl --cert)', async () => {
    writeFileSync(join(p.dir, 'certs/bundle.pem'), readFileSync(certs.client.cert, 'utf8') + readFileSync(certs.client.key, 'utf8'));
    p.write('api.http', `# @tls.certFile certs/bundle.pem\n# @tls.caFile certs/ca.pem\nGET ${mtls.url}/me\n`);
    const result = await p.run(['run', 'api.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
  });
});

describe('mutual TLS: encrypted keys and PKCS#12', () => {
  test('an encrypted key with its passphrase from -e; the passphrase never shows', async () => {
    p.profiles([{ name: 'dev', tls: { certFile: 'certs/client.pem', keyFile: 'certs/client-encrypted.key', caFile: 'certs/ca.pem', passphrase: '{{keyPassphrase}}' } }]);
    p.write('api.http', `GET ${mtls.url}/me\n`);
    const result = await p.run(['run', 'api.http', '-e', `keyPassphrase=${certs.passphrase}`, '-v']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
    expectNoSecrets(result, [certs.passphrase]);
  });

  test('a PKCS#12 bundle with its passphrase, in a YAML request', async () => {
    p.write('api.yaml', `url: ${mtls.url}/me\ntls:\n  pfxFile: certs/client.p12\n  passphrase: "{{p12Passphrase}}"\n  caFile: certs/ca.pem\n`);
    const result = await p.run(['run', 'api.yaml', '-e', `p12Passphrase=${certs.passphrase}`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CLIENT_CN);
    expectNoSecrets(result, [certs.passphrase]);
  });
});

describe('server verification against a self-signed server', () => {
  test('verified by default (exit 5, hint caFile); insecureSkipVerify false verifies too', async () => {
    p.write('strict.http', `GET ${selfSigned.url}/\n`);
    p.write('explicit.http', `# @tls.insecureSkipVerify false\nGET ${selfSigned.url}/\n`);
    for (const file of ['strict.http', 'explicit.http']) {
      expectCleanFailure(await p.run(['run', file]), { code: 5, message: /TLS error with 127\.0\.0\.1:\d+: the server certificate is self-signed and not trusted/, hint: /tls\.caFile/ });
    }
  });

  test('insecureSkipVerify true connects and warns once per run on stderr', async () => {
    p.profiles([{ name: 'dev', tls: { insecureSkipVerify: true } }]);
    p.write('two.http', `### a\nGET ${selfSigned.url}/a\n\n### b\nGET ${selfSigned.url}/b\n`);
    const result = await p.run(['run', 'two.http']);
    expect(result.code).toBe(0);
    expect(diagnostics(result.stderr)).toEqual([expect.stringMatching(/^reqflow: warning: TLS certificate verification is off \(insecureSkipVerify\)/)]);
  });

  test('the request says insecureSkipVerify false over a profile that says true; --insecure turns it on', async () => {
    p.profiles([{ name: 'dev', tls: { insecureSkipVerify: true } }]);
    p.write('strict.http', `# @tls.insecureSkipVerify false\nGET ${selfSigned.url}/\n`);
    expect((await p.run(['run', 'strict.http'])).code).toBe(5);
    const forced = await p.run(['run', 'strict.http', '--insecure']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/^reqflow: warning: TLS certificate verification is off/m);
  });

  test('caFile naming the self-signed certificate trusts it, with no warning', async () => {
    p.write('trusted.http', `# @tls.caFile certs/self-signed.pem\nGET ${selfSigned.url}/\n`);
    const result = await p.run(['run', 'trusted.http']);
    expectQuietSuccess(result);
  });
});

describe('mutual TLS and redirects', () => {
  test('-L to another origin: the client certificate is not presented there (said by -v), as no credential goes there', async () => {
    const { createServer } = await import('node:https');
    const seen: string[] = [];
    // B asks for a certificate without requiring one, and notes whether it got one.
    const other = createServer({ cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key), ca: readFileSync(certs.ca.cert), requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      seen.push(peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : 'none');
      res.end('{}');
    });
    // A requires the certificate, and sends the client to B (localhost: another origin).
    const { port: otherPort } = await new Promise<import('node:net').AddressInfo>((resolve) => other.listen(0, '127.0.0.1', () => resolve(other.address() as import('node:net').AddressInfo)));
    const first = createServer({ cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key), ca: readFileSync(certs.ca.cert), requestCert: true, rejectUnauthorized: true }, (req, res) => {
      if (req.url === '/here') {
        res.writeHead(302, { Location: '/there' }).end();
        return;
      }
      res.writeHead(302, { Location: `https://localhost:${otherPort}/landed` }).end();
    });
    const { port } = await new Promise<import('node:net').AddressInfo>((resolve) => first.listen(0, '127.0.0.1', () => resolve(first.address() as import('node:net').AddressInfo)));
    try {
      p.profiles([{ name: 'dev', tls: { certFile: 'certs/client.pem', keyFile: 'certs/client.key', caFile: './certs/ca.pem' } }]);
      p.write('requests/redirect.http', `GET https://127.0.0.1:${port}/here\n`);
      const result = await p.run(['run', 'requests/redirect.http', '-L', '-v']);
      expect(result.code).toBe(0);
      expect(seen).toEqual(['none']);
      expect(result.stderr).toMatch(/redirected to https:\/\/localhost:\d+\/landed; not sent there \(another origin\): the client certificate/);
    } finally {
      other.closeAllConnections();
      first.closeAllConnections();
      await Promise.all([new Promise((resolve) => other.close(resolve)), new Promise((resolve) => first.close(resolve))]);
    }
  });
});
