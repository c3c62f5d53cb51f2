/**
 * Test certificates, made with the `openssl` CLI at set-up (2048-bit RSA, 365 days) in a temp
 * folder: a CA with a server and a client certificate, a second unrelated CA with its own
 * client, an expired server and client certificate, a server certificate for the wrong host, a
 * self-signed server certificate, an encrypted client key and a PKCS#12 bundle.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface CertPair {
  cert: string;
  key: string;
}

export interface TestCerts {
  dir: string;
  ca: CertPair;
  /** Signed by `ca`, SAN IP:127.0.0.1 and DNS:localhost. */
  server: CertPair;
  /** Signed by `ca`, for client authentication. */
  client: CertPair;
  /** An unrelated CA and a client certificate it signed (a server trusting `ca` rejects it). */
  otherCa: CertPair;
  otherClient: CertPair;
  /** Signed by `ca`, valid 2020-01-01 to 2021-01-01 (server key). */
  expiredServer: CertPair;
  /** Signed by `ca`, valid 2020-01-01 to 2021-01-01 (client key). */
  expiredClient: CertPair;
  /** Signed by `ca` for DNS:wrong.example.com only (server key). */
  wrongHostServer: CertPair;
  /** Signed by `ca` for DNS:localhost only (server key): wrong for https://127.0.0.1. */
  localhostOnlyServer: CertPair;
  /** Self-signed, SAN IP:127.0.0.1 (no CA). */
  selfSigned: CertPair;
  /** The client key encrypted with AES-256 under `passphrase`. */
  encryptedClientKey: string;
  /** Client certificate, key and CA in a PKCS#12 bundle under `passphrase`. */
  clientP12: string;
  passphrase: string;
  cleanup(): void;
}

const CONFIG = `
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ ca_ext ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ server_ext ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
[ client_ext ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
[ ca ]
default_ca = ca_default
[ ca_default ]
database = index.txt
new_certs_dir = issued
serial = serial
default_md = sha256
policy = any_name
copy_extensions = copy
unique_subject = no
[ any_name ]
commonName = supplied
`;

export function makeCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'reqflow-certs-'));
  const path = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  writeFileSync(path('openssl.cnf'), CONFIG);
  writeFileSync(path('index.txt'), '');
  writeFileSync(path('serial'), '1000\n');
  mkdirSync(path('issued'));
  const config = ['-config', 'openssl.cnf'];
  const newKey = (name: string): string => {
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${name}.key`);
    return path(`${name}.key`);
  };
  const selfSignedCa = (name: string, cn: string): CertPair => {
    const key = newKey(name);
    openssl('req', ...config, '-x509', '-new', '-key', key, '-days', '365', '-subj', `/CN=${cn}`, '-extensions', 'ca_ext', '-out', `${name}.pem`);
    return { cert: path(`${name}.pem`), key };
  };
  const issue = (name: string, cn: string, key: string, ca: CertPair, extensions: string, san?: string): CertPair => {
    const args = ['req', ...config, '-x509', '-new', '-key', key, '-days', '365', '-subj', `/CN=${cn}`, '-extensions', extensions, '-CA', ca.cert, '-CAkey', ca.key, '-out', `${name}.pem`];
    if (san) args.push('-addext', `subjectAltName=${san}`);
    openssl(...args);
    return { cert: path(`${name}.pem`), key };
  };
  // `openssl x509`/`req` cannot back-date a certificate; `openssl ca` can.
  const expired = (name: string, cn: string, key: string, ca: CertPair, extensions: string, san?: string): CertPair => {
    const csr = ['req', ...config, '-new', '-key', key, '-subj', `/CN=${cn}`, '-out', `${name}.csr`];
    if (san) csr.push('-addext', `subjectAltName=${san}`);
    openssl(...csr);
    openssl('ca', ...config, '-batch', '-notext', '-cert', ca.cert, '-keyfile', ca.key, '-extensions', extensions, '-in', `${name}.csr`, '-out', `${name}.pem`, '-startdate', '20200101000000Z', '-enddate', '20210101000000Z');
    return { cert: path(`${name}.pem`), key };
  };

  const ca = selfSignedCa('ca', 'reqflow test CA');
  const serverKey = newKey('server');
  const server = issue('server', '127.0.0.1', serverKey, ca, 'server_ext', 'IP:127.0.0.1,DNS:localhost');
  const clientKey = newKey('client');
  const client = issue('client', 'reqflow test client', clientKey, ca, 'client_ext');
  const otherCa = selfSignedCa('other-ca', 'unrelated CA');
  const otherClient = issue('other-client', 'stranger', newKey('other-client'), otherCa, 'client_ext');
  const expiredServer = expired('expired-server', '127.0.0.1', serverKey, ca, 'server_ext', 'IP:127.0.0.1,DNS:localhost');
  const expiredClient = expired('expired-client', 'expired client', clientKey, ca, 'client_ext');
  const wrongHostServer = issue('wrong-host', 'wrong.example.com', serverKey, ca, 'server_ext', 'DNS:wrong.example.com');
  const localhostOnlyServer = issue('localhost-only', 'localhost', serverKey, ca, 'server_ext', 'DNS:localhost');
  const selfKey = newKey('self-signed');
  openssl('req', ...config, '-x509', '-new', '-key', selfKey, '-days', '365', '-subj', '/CN=127.0.0.1', '-extensions', 'server_ext', '-addext', 'subjectAltName=IP:127.0.0.1', '-out', 'self-signed.pem');
  const selfSigned = { cert: path('self-signed.pem'), key: selfKey };

  const passphrase = 'correct horse battery';
  openssl('pkey', '-in', client.key, '-aes256', '-passout', `pass:${passphrase}`, '-out', 'client-encrypted.key');
  openssl('pkcs12', '-export', '-inkey', client.key, '-in', client.cert, '-certfile', ca.cert, '-passout', `pass:${passphrase}`, '-out', 'client.p12');

  return {
    dir,
    ca,
    server,
    client,
    otherCa,
    otherClient,
    expiredServer,
    expiredClient,
    wrongHostServer,
    localhostOnlyServer,
    selfSigned,
    encryptedClientKey: path('client-encrypted.key'),
    clientP12: path('client.p12'),
    passphrase,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
