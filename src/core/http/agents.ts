import { EventEmitter } from 'node:events';
import { Agent as HttpAgent } from 'node:http';
import type { Duplex } from 'node:stream';
import { NetworkError } from '../errors/index.js';
import { maskUrl } from '../mask.js';
import type { Agent as HttpsAgent } from 'node:https';
import { requireBundled } from '../bundled-dependency.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import type { TlsConnectionOptions } from '../model.js';
import { Http2Sessions } from './http2.js';
import { tlsConnectOptions, tlsKey } from './tls-connect.js';

/**
 * Idle kept-alive sockets close after 4 s, before the 5 s after which most servers (Node's
 * default `keepAliveTimeout`) close them: reusing a socket the server is closing that very
 * moment fails with a reset. With a `timeout` set, Node also honours a shorter `Keep-Alive:
 * timeout=N` the server announces. Requests set their own time-out on the socket they use.
 */
const KEEP_ALIVE = { keepAlive: true, maxSockets: 16, timeout: 4000 } as const;

/** The HTTP proxy agent classes (scripts/proxy-agents.cjs). */
interface HttpProxyAgents {
  HttpProxyAgent: typeof import('http-proxy-agent').HttpProxyAgent;
  HttpsProxyAgent: typeof import('https-proxy-agent').HttpsProxyAgent;
}

/**
 * One keep-alive agent per TLS setting, reused by every request of a run, so a file of 1,000
 * requests to one host opens one connection.
 */
export class AgentPool {
  private readonly http = new HttpAgent(KEEP_ALIVE);
  private readonly https = new Map<string, HttpsAgent>();
  /** Through a proxy: one keep-alive agent per proxy, target scheme and TLS setting. */
  private readonly proxied = new Map<string, HttpAgent>();
  /** HTTP/2 sessions, one per origin and TLS setting. */
  readonly http2 = new Http2Sessions();

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
      agent = new https.Agent({ ...KEEP_ALIVE, ...tlsConnectOptions(tls), ALPNProtocols: ['http/1.1'] });
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
      const options = KEEP_ALIVE;
      if (proxy.protocol.startsWith('socks')) agent = new (requireBundled<typeof import('socks-proxy-agent')>('socks-proxy-agent', 'socks-proxy-agent').SocksProxyAgent)(proxy, options);
      else {
        const agents = requireBundled<HttpProxyAgents>('proxy-agents', '../../scripts/proxy-agents.cjs');
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

  /**
   * A raw connection to `url`'s host and port through the proxy — CONNECT (https-proxy-agent)
   * or SOCKS (socks-proxy-agent), by the agent's own `connect` — for a protocol Node's agents
   * cannot carry (HTTP/2, which speaks TLS with its own ALPN over it). A proxy that refuses the
   * tunnel is an error naming its answer.
   */
  async tunnel(url: URL, proxy: URL): Promise<Duplex> {
    const agent = this.viaProxy(url, {}, proxy, true) as HttpAgent & { connect(req: unknown, options: object): Promise<Duplex> };
    // The agents talk to the request they serve: the CONNECT answer comes as 'proxyConnect', and
    // 'socket' resumes the tunnel once its reader is attached.
    const request = Object.assign(new EventEmitter(), { destroy: () => undefined });
    let answer: { statusCode: number; statusText?: string } | undefined;
    request.once('proxyConnect', (connect: { statusCode: number; statusText?: string }) => (answer = connect));
    const socket = await agent.connect(request, { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), secureEndpoint: false });
    if (answer !== undefined && answer.statusCode !== 200) {
      socket.destroy();
      throw new NetworkError(`the proxy ${maskUrl(proxy.href)} refused a tunnel to ${url.host}: ${answer.statusCode} ${answer.statusText ?? ''}`.trim(), {
        hint: answer.statusCode === 407 ? 'the proxy wants credentials: http://user:password@proxy' : 'the proxy does not allow CONNECT to that host and port',
      });
    }
    request.emit('socket', socket);
    return socket;
  }

  /** Closes idle sockets so the process can exit. */
  destroy(): void {
    this.http.destroy();
    for (const agent of this.proxied.values()) agent.destroy();
    this.proxied.clear();
    for (const agent of this.https.values()) agent.destroy();
    this.https.clear();
    this.http2.destroy();
  }
}
