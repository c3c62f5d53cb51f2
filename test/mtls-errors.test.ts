/**
 * Every TLS failure is exit 5 with one `reqflow:` line and a hint: the client's own files
 * (checked before connecting), and what servers say (a Node https server, which drops a
 * connection with a bad client certificate, and `openssl s_server`, which sends TLS alerts).
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { expectCleanFailure } from './helpers/expect-error.js';
import { expectNoSecrets, project, type Project } from './helpers/auth-project.js';
import { startOpensslServer, startTlsServer, type TlsServer } from './servers/tls-server.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its certificates are made by openssl (helpers/certs.ts), and openssl s_server is one of its servers.
const { describe, test } = needs(['openssl']);

let certs: TestCerts;
let mtls: TlsServer;
let alerting: TlsServer;
let expired: TlsServer;
let wrongHost: TlsServer;
let p: Project;

beforeAll(async () => {
  certs = makeCerts();
  [mtls, alerting, expired, wrongHost] = await Promise.all([
    startTlsServer({ cert: certs.server.cert, key: certs.server.key, clientCa: certs.ca.cert }),
    startOpensslServer({ cert: certs.server.cert, key: certs.server.key, clientCa: certs.ca.cert }),
    startTlsServer({ cert: certs.expiredServer.cert, key: certs.expiredServer.key }),
    startTlsServer({ cert: certs.wrongHostServer.cert, key: certs.wrongHostServer.key }),
  ]);
});
afterAll(async () => {
  await Promise.all([mtls.close(), alerting.close(), expired.close(), wrongHost.close()]);
  certs.cleanup();
});
beforeEach(() => {
  p = project();
  cpSync(certs.dir, join(p.dir, 'certs'), { recursive: true });
});
afterEach(() => p.cleanup());

/** A request to `url` with these `# @tls.*` annotations (paths relative to the project). */
function request(url: string, tls: Record<string, string>): string {
  const lines = Object.entries(tls).map(([key, value]) => `# @tls.${key} ${value}`);
  return p.write('api.http', `### call\n${lines.join('\n')}\nGET ${url}/\n`);
}

const GOOD = { certFile: 'certs/client.pem', keyFile: 'certs/client.key', caFile: 'certs/ca.pem' };

describe('client certificate and key files (checked before connecting)', () => {
  test('a missing file names the path and the setting that named it (request or profile)', async () => {
    request(mtls.url, { ...GOOD, certFile: 'certs/nope.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), {
      code: 5,
      message: new RegExp(`client certificate not found: ${join(p.dir, 'certs/nope.pem')} \\(tls\\.certFile of request "call"\\)`),
      hint: /relative tls paths start at the folder of the file that names them/,
    });
    p.profiles([{ name: 'dev', tls: { ...GOOD, keyFile: 'keys/client.key' } }]);
    p.write('api.http', `GET ${mtls.url}/\n`);
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client key not found: .*keys\/client\.key \(tls\.keyFile of profile "dev"\)/ });
  });

  test('a folder, or a file without read permission, is unreadable', async () => {
    mkdirSync(join(p.dir, 'certs/folder.pem'));
    request(mtls.url, { ...GOOD, certFile: 'certs/folder.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /cannot read client certificate .*folder\.pem \(tls\.certFile of request "call"\): it is a folder/ });
    if (process.getuid?.() === 0) return; // root reads anything: the permission case cannot be shown
    chmodSync(join(p.dir, 'certs/client.key'), 0o000);
    request(mtls.url, GOOD);
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /cannot read client key .*: permission denied/ });
  });

  test('files that are not PEM: certificate, DER certificate, key, CA file', async () => {
    p.write('certs/notes.txt', 'just some notes\n');
    execFileSync('openssl', ['x509', '-in', certs.client.cert, '-outform', 'der', '-out', join(p.dir, 'certs/client.der')]);
    request(mtls.url, { ...GOOD, certFile: 'certs/notes.txt' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client certificate .*notes\.txt .* is not a PEM certificate/, hint: /BEGIN CERTIFICATE/ });
    request(mtls.url, { ...GOOD, certFile: 'certs/client.der' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /is not a PEM certificate/, hint: /it is DER; convert it with: openssl x509 -inform der/ });
    request(mtls.url, { ...GOOD, keyFile: 'certs/notes.txt' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client key .*notes\.txt .* is not a PEM private key/, hint: /BEGIN PRIVATE KEY/ });
    request(mtls.url, { ...GOOD, keyFile: 'certs/client.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client key .*client\.pem .* is not a PEM private key/ });
    request(mtls.url, { ...GOOD, caFile: 'certs/notes.txt' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /CA file .*notes\.txt .* holds no PEM certificate/ });
  });

  test('a key that does not match the certificate', async () => {
    request(mtls.url, { ...GOOD, keyFile: 'certs/other-client.key' });
    expectCleanFailure(await p.run(['run', 'api.http']), {
      code: 5,
      message: /client key .*other-client\.key \(tls\.keyFile of request "call"\) does not match client certificate .*client\.pem/,
      hint: /openssl x509 -noout -pubkey/,
    });
  });

  test('a certificate without a key, a key without a certificate, pfxFile and certFile together', async () => {
    request(mtls.url, { certFile: 'certs/client.pem', caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /tls\.certFile of request "call" is set but no client key is/, hint: /tls\.keyFile/ });
    request(mtls.url, { keyFile: 'certs/client.key', caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /tls\.keyFile of request "call" is set but no client certificate is/ });
    request(mtls.url, { ...GOOD, pfxFile: 'certs/client.p12' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /both tls\.pfxFile of request "call" and tls\.certFile of request "call" are set/, hint: /either as certFile \+ keyFile .* or as pfxFile/ });
  });

  test('an encrypted key without a passphrase, and with a wrong one; the passphrase never shows', async () => {
    request(mtls.url, { ...GOOD, keyFile: 'certs/client-encrypted.key' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client key .*client-encrypted\.key .* is encrypted and no passphrase is set/, hint: /tls\.passphrase/ });
    request(mtls.url, { ...GOOD, keyFile: 'certs/client-encrypted.key', passphrase: '{{keyPassphrase}}' });
    const wrong = await p.run(['run', 'api.http', '-e', 'keyPassphrase=wrong-passphrase-123']);
    expectCleanFailure(wrong, { code: 5, message: /wrong passphrase for client key .*client-encrypted\.key/, hint: /tls\.passphrase of request "call"/ });
    expectNoSecrets(wrong, ['wrong-passphrase-123']);
  });

  test('PKCS#12: no passphrase, a wrong one, a file that is not a bundle', async () => {
    request(mtls.url, { pfxFile: 'certs/client.p12', caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /PKCS#12 file .*client\.p12 .* is protected and no passphrase is set/ });
    request(mtls.url, { pfxFile: 'certs/client.p12', caFile: 'certs/ca.pem', passphrase: '{{p12Passphrase}}' });
    const wrong = await p.run(['run', 'api.http', '-e', 'p12Passphrase=not-the-p12-pass']);
    expectCleanFailure(wrong, { code: 5, message: /wrong passphrase for PKCS#12 file/ });
    expectNoSecrets(wrong, ['not-the-p12-pass']);
    request(mtls.url, { pfxFile: 'certs/client.pem', caFile: 'certs/ca.pem', passphrase: 'x' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client\.pem .* is not a PKCS#12 \(\.p12\/\.pfx\) bundle/, hint: /tls\.certFile and tls\.keyFile/ });
  });

  test('an expired client certificate', async () => {
    request(mtls.url, { ...GOOD, certFile: 'certs/expired-client.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /client certificate .*expired-client\.pem .* expired on 2021-01-01/, hint: /get a new one issued/ });
  });
});

describe('what the server says about the client certificate', () => {
  test('none sent to a server that requires one (Node server and openssl s_server)', async () => {
    for (const server of [mtls, alerting]) {
      request(server.url, { caFile: 'certs/ca.pem' });
      expectCleanFailure(await p.run(['run', 'api.http']), {
        code: 5,
        message: /TLS error with 127\.0\.0\.1:\d+: the server requires a client certificate and none was sent/,
        hint: /set tls\.certFile and tls\.keyFile \(or tls\.pfxFile\)/,
      });
    }
  });

  test('a certificate from an unrelated CA: the Node server drops the connection', async () => {
    request(mtls.url, { certFile: 'certs/other-client.pem', keyFile: 'certs/other-client.key', caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), {
      code: 5,
      message: /closed the connection during the TLS handshake: it most likely rejected the client certificate/,
      hint: /trusts the CA that issued tls\.certFile/,
    });
  });

  test('a certificate from an unrelated CA: openssl s_server sends "unknown CA"', async () => {
    request(alerting.url, { certFile: 'certs/other-client.pem', keyFile: 'certs/other-client.key', caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /the server rejected the client certificate: it was not issued by a CA the server trusts/, hint: /issued by a CA the server trusts/ });
  });

  test('the right certificate gets through openssl s_server too', async () => {
    request(alerting.url, GOOD);
    const result = await p.run(['run', 'api.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/s_server|Ciphers/);
  });
});

describe("the server's certificate", () => {
  test('not trusted without caFile, nor with an unrelated CA', async () => {
    for (const tls of [{ certFile: GOOD.certFile, keyFile: GOOD.keyFile }, { ...GOOD, caFile: 'certs/other-ca.pem' }]) {
      request(mtls.url, tls);
      expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /TLS error with 127\.0\.0\.1:\d+: the server certificate is not trusted/, hint: /tls\.caFile/ });
    }
  });

  test('issued for another host name', async () => {
    request(wrongHost.url, { caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), {
      code: 5,
      message: /the server certificate is for DNS:wrong\.example\.com, not for 127\.0\.0\.1 \(host name mismatch\)/,
      hint: /subjectAltName/,
    });
  });

  test('expired', async () => {
    request(expired.url, { caFile: 'certs/ca.pem' });
    expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /TLS error with 127\.0\.0\.1:\d+: the server certificate has expired/, hint: /renew/ });
  });

  test('https:// against a plain HTTP port', async () => {
    const { startEchoServer } = await import('./servers/echo-server.js');
    const plain = await startEchoServer();
    try {
      p.write('api.http', `GET ${plain.url.replace('http://', 'https://')}/\n`);
      expectCleanFailure(await p.run(['run', 'api.http']), { code: 5, message: /the server did not answer with TLS/, hint: /http:\/\// });
    } finally {
      await plain.close();
    }
  });
});
