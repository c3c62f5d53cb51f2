/**
 * The proxy packages, loaded from the bundles `npm run build` makes of them (scripts/
 * proxy-agents.cjs, scripts/socks.cjs; src/core/bundled-dependency.ts): only a run that uses a
 * proxy reads them, and only the one of its kind.
 */
import { requireBundled } from '../bundled-dependency.js';

/** http-proxy-agent and https-proxy-agent. */
interface HttpProxyPackages {
  HttpProxyAgent: typeof import('http-proxy-agent').HttpProxyAgent;
  HttpsProxyAgent: typeof import('https-proxy-agent').HttpsProxyAgent;
}

/** socks-proxy-agent (HTTP/1.1, WebSocket) and the `socks` client it uses (HTTP/2 tunnels). */
interface SocksPackages {
  SocksProxyAgent: typeof import('socks-proxy-agent').SocksProxyAgent;
  SocksClient: typeof import('socks').SocksClient;
}

export function httpProxyPackages(): HttpProxyPackages {
  return requireBundled<HttpProxyPackages>('proxy-agents', '../../scripts/proxy-agents.cjs');
}

export function socksPackages(): SocksPackages {
  return requireBundled<SocksPackages>('socks', '../../scripts/socks.cjs');
}
