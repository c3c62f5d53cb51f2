import { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { lazyBuiltin } from '../lazy-builtin.js';
import type { TlsConnectionOptions } from '../model.js';
import type { Http2Sessions } from './http2.js';
import { InFlight } from './in-flight.js';
import { httpProxyPackages, socksPackages } from './proxy-packages.js';
import { tlsConnectOptions, tlsKey } from './tls-connect.js';

/**
 * Idle kept-alive sockets close after 4 s, before the 5 s after which most servers (Node's
 * default `keepAliveTimeout`) close them: reusing a socket the server is closing that very
 * moment fails with a reset. With a `timeout` set, Node also honours a shorter `Keep-Alive:
 * timeout=N` the server announces. Requests set their own time-out on the socket they use.
 */
const KEEP_ALIVE = { keepAlive: true, maxSockets: 16, timeout: 4000 };

/**
 * One keep-alive agent per TLS setting, reused by every request of a run, so a file of 1,000
 * requests to one host opens one connection.
 */
export class AgentPool {
  private readonly http: HttpAgent;
  private readonly https = new Map<string, HttpsAgent>();
  /** Through a proxy: one keep-alive agent per proxy, target scheme and TLS setting. */
  private readonly proxied = new Map<string, HttpAgent>();
  /** HTTP/2 sessions, one per origin and TLS setting: made (and http2.js imported) by the first HTTP/2 request. */
  private http2Sessions: Promise<Http2Sessions> | undefined;
  private openedHttp2: Http2Sessions | undefined;
  /** Requests under way on these connections: none may end the process unsettled. */
  readonly inFlight = new InFlight();
  /** https origins that refused HTTP/1.1 in the TLS handshake: spoken to in HTTP/2 from then on. */
  private readonly onlyHttp2 = new Set<string>();

  /** `maxSockets`: connections per origin (`reqflow stress` opens one per worker). */
  private readonly keepAlive: typeof KEEP_ALIVE;

  constructor(maxSockets = KEEP_ALIVE.maxSockets) {
    this.keepAlive = { ...KEEP_ALIVE, maxSockets };
    this.http = new HttpAgent(this.keepAlive);
  }

  http2(): Promise<Http2Sessions> {
    this.http2Sessions ??= import('./http2.js').then(({ Http2Sessions }) => (this.openedHttp2 = new Http2Sessions()));
    return this.http2Sessions;
  }

  speaksOnlyHttp2(url: URL): boolean {
    return this.onlyHttp2.size > 0 && this.onlyHttp2.has(url.origin);
  }

  rememberOnlyHttp2(url: URL): void {
    this.onlyHttp2.add(url.origin);
  }

  forUrl(url: URL, tls: TlsConnectionOptions, proxy?: URL): HttpAgent | HttpsAgent {
    if (proxy) return this.viaProxy(url, tls, proxy);
    if (url.protocol === 'http:') return this.http;
    const key = tlsKey(tls);
    let agent = this.https.get(key);
    if (!agent) {
      // https, tls and crypto load only when a run has an https:// URL (start-up time).
      const https = lazyBuiltin<typeof import('node:https')>('node:https');
      // ALPN says HTTP/1.1, as curl does: an HTTP/2-only server then refuses in the handshake,
      // before any request byte, and send.ts speaks HTTP/2 to it instead.
      agent = new https.Agent({ ...this.keepAlive, ...tlsConnectOptions(tls), ALPNProtocols: ['http/1.1'] });
      this.https.set(key, agent);
    }
    return agent;
  }

  /**
   * http-proxy-agent (absolute-form requests through an HTTP proxy), https-proxy-agent (CONNECT,
   * then TLS to the server with the request's own TLS options) and socks-proxy-agent (SOCKS5,
   * `socks5h` resolving names at the proxy). Loaded only when a request uses a proxy.
   */
  private viaProxy(url: URL, tls: TlsConnectionOptions, proxy: URL, tunnel = false): HttpAgent {
    const key = `${proxy.href}|${url.protocol}|${url.protocol === 'https:' ? tlsKey(tls) : ''}|${tunnel ? 'tunnel' : ''}`;
    let agent = this.proxied.get(key);
    if (!agent) {
      const options = this.keepAlive;
      if (proxy.protocol.startsWith('socks')) agent = new (socksPackages().SocksProxyAgent)(proxy, options);
      else {
        const agents = httpProxyPackages();
        agent = url.protocol === 'https:' || tunnel ? new agents.HttpsProxyAgent(proxy, options) : new agents.HttpProxyAgent(proxy, options);
      }
      this.proxied.set(key, agent);
    }
    return agent;
  }

  /**
   * The agent for a socket a plugin opens itself through the proxy (a WebSocket: `ws://` and
   * `wss://`): always a tunnel (CONNECT, or SOCKS), since a forwarding proxy cannot upgrade.
   */
  tunnelFor(url: URL, tls: TlsConnectionOptions, proxy: URL): HttpAgent {
    return this.viaProxy(url, tls, proxy, true);
  }

  /** Closes idle sockets so the process can exit. */
  destroy(): void {
    this.http.destroy();
    for (const agent of this.proxied.values()) agent.destroy();
    this.proxied.clear();
    for (const agent of this.https.values()) agent.destroy();
    this.https.clear();
    this.openedHttp2?.destroy();
  }
}
