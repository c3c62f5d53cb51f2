import type { ConnectionOptions, PeerCertificate } from 'node:tls';
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

/**
 * TLS options for a connection to `url` inside a proxy's tunnel, made by the proxy agent:
 * ALPN offers HTTP/1.1 as a direct connection does (an HTTP/2-only server then refuses in the
 * handshake), and an IP address is checked against the certificate as the address itself —
 * the agents leave the host out of their TLS call, and Node would check the name "localhost".
 */
export function tunnelledTlsOptions(tls: TlsConnectionOptions, url: URL): ConnectionOptions {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const nodeTls = lazyBuiltin<typeof import('node:tls')>('node:tls');
  const byAddress = /^[\d.]+$|:/.test(host);
  return {
    ...tlsConnectOptions(tls),
    ALPNProtocols: ['http/1.1'],
    ...(byAddress ? { checkServerIdentity: (_name: string, cert: PeerCertificate) => nodeTls.checkServerIdentity(host, cert) } : {}),
  };
}

/** A WebSocket's TLS options (none for `ws://`): inside a proxy's tunnel when `proxied`, else direct. */
export function webSocketTlsOptions(tls: TlsConnectionOptions, url: URL, proxied: boolean): ConnectionOptions {
  if (url.protocol !== 'wss:') return {};
  return proxied ? tunnelledTlsOptions(tls, url) : tlsConnectOptions(tls);
}

/** One string per TLS setting: requests with equal settings share a connection. */
export function tlsKey(tls: TlsConnectionOptions): string {
  const hash = lazyBuiltin<typeof import('node:crypto')>('node:crypto').createHash('sha256');
  for (const part of [tls.cert, tls.key, tls.pfx, ...(tls.ca ?? [])]) hash.update(part ? part : '-').update('\0');
  hash.update(String(tls.passphrase ?? '')).update(String(tls.rejectUnauthorized !== false));
  return hash.digest('hex');
}
