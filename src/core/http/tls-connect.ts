import type { ConnectionOptions } from 'node:tls';
import { lazyBuiltin } from '../lazy-builtin.js';
import type { TlsConnectionOptions } from '../model.js';

/**
 * Node `tls.connect` options for one TLS setting (also what a WebSocket client needs).
 * `ca` adds to the default trust: Node's `ca` option replaces it, so include the roots.
 */
export function tlsConnectOptions(tls: TlsConnectionOptions): ConnectionOptions {
  const ca = tls.ca && tls.ca.length > 0 ? [...lazyBuiltin<typeof import('node:tls')>('node:tls').rootCertificates, ...tls.ca.map((b) => b.toString('utf8'))] : undefined;
  return {
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
    ...(tls.pfx ? { pfx: tls.pfx } : {}),
    ...(tls.passphrase !== undefined ? { passphrase: tls.passphrase } : {}),
    ...(ca ? { ca } : {}),
    rejectUnauthorized: tls.rejectUnauthorized !== false,
  };
}

/** One string per TLS setting: requests with equal settings share a connection. */
export function tlsKey(tls: TlsConnectionOptions): string {
  const hash = lazyBuiltin<typeof import('node:crypto')>('node:crypto').createHash('sha256');
  for (const part of [tls.cert, tls.key, tls.pfx, ...(tls.ca ?? [])]) hash.update(part ? part : '-').update('\0');
  hash.update(String(tls.passphrase ?? '')).update(String(tls.rejectUnauthorized !== false));
  return hash.digest('hex');
}
