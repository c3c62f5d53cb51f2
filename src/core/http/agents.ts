import { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { lazyBuiltin } from '../lazy-builtin.js';
import type { TlsConnectionOptions } from '../model.js';

/**
 * One keep-alive agent per TLS setting, reused by every request of a run, so a file of 1,000
 * requests to one host opens one connection.
 */
export class AgentPool {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  private readonly https = new Map<string, HttpsAgent>();

  forUrl(url: URL, tls: TlsConnectionOptions): HttpAgent | HttpsAgent {
    if (url.protocol === 'http:') return this.http;
    const key = tlsKey(tls);
    let agent = this.https.get(key);
    if (!agent) {
      // https, tls and crypto load only when a run has an https:// URL (start-up time).
      const https = lazyBuiltin<typeof import('node:https')>('node:https');
      agent = new https.Agent({ keepAlive: true, maxSockets: 16, ...tlsConnectOptions(tls) });
      this.https.set(key, agent);
    }
    return agent;
  }

  /** Closes idle sockets so the process can exit. */
  destroy(): void {
    this.http.destroy();
    for (const agent of this.https.values()) agent.destroy();
    this.https.clear();
  }
}

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

function tlsKey(tls: TlsConnectionOptions): string {
  const hash = lazyBuiltin<typeof import('node:crypto')>('node:crypto').createHash('sha256');
  for (const part of [tls.cert, tls.key, tls.pfx, ...(tls.ca ?? [])]) hash.update(part ? part : '-').update('\0');
  hash.update(String(tls.passphrase ?? '')).update(String(tls.rejectUnauthorized !== false));
  return hash.digest('hex');
}
