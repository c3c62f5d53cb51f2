/**
 * The SOCKS side of reqflow's proxies (src/core/http/agents.ts and tunnel.ts), as one module:
 * scripts/bundle-fast-path.js bundles this file, socks-proxy-agent and the `socks` client into
 * dist/bundle/socks.cjs, apart from the HTTP proxy agents (it is four times their size).
 * Getters, so a run evaluates only what it uses: the agent for HTTP/1.1 and WebSocket, the
 * client alone for an HTTP/2 tunnel.
 */
'use strict';
module.exports = {
  get SocksProxyAgent() {
    return require('socks-proxy-agent').SocksProxyAgent;
  },
  get SocksClient() {
    return require('socks').SocksClient;
  },
};
