import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { TlsConnectionOptions } from '../pipeline.js';

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
      // `ca` adds to the default trust: Node's `ca` option replaces it, so include the roots.
      const ca = tls.ca && tls.ca.length > 0 ? [...rootCertificates, ...tls.ca.map((b) => b.toString('utf8'))] : undefined;
      agent = new HttpsAgent({
        keepAlive: true,
        maxSockets: 16,
        ...(tls.cert ? { cert: tls.cert } : {}),
        ...(tls.key ? { key: tls.key } : {}),
        ...(tls.pfx ? { pfx: tls.pfx } : {}),
        ...(tls.passphrase !== undefined ? { passphrase: tls.passphrase } : {}),
        ...(ca ? { ca } : {}),
        rejectUnauthorized: tls.rejectUnauthorized !== false,
      });
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

function tlsKey(tls: TlsConnectionOptions): string {
  const hash = createHash('sha256');
  for (const part of [tls.cert, tls.key, tls.pfx, ...(tls.ca ?? [])]) hash.update(part ? part : '-').update('\0');
  hash.update(String(tls.passphrase ?? '')).update(String(tls.rejectUnauthorized !== false));
  return hash.digest('hex');
}
