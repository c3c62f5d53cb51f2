/**
 * The proxy agents reqflow uses (src/core/http/agents.ts), as one module: scripts/bundle-fast-path.js
 * bundles this file and the packages into dist/bundle/proxy-agents.cjs. Getters, so a run through
 * an HTTP proxy never evaluates the SOCKS client.
 */
'use strict';
module.exports = {
  get HttpProxyAgent() {
    return require('http-proxy-agent').HttpProxyAgent;
  },
  get HttpsProxyAgent() {
    return require('https-proxy-agent').HttpsProxyAgent;
  },
  get SocksProxyAgent() {
    return require('socks-proxy-agent').SocksProxyAgent;
  },
};
