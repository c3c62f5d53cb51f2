/**
 * The HTTP proxy agents reqflow uses (src/core/http/agents.ts), as one module: scripts/bundle-fast-path.js
 * bundles this file and the packages into dist/bundle/proxy-agents.cjs (SOCKS, a larger client,
 * into a file of its own, scripts/socks.cjs). Getters, so a run evaluates only the agent it uses.
 */
'use strict';
module.exports = {
  get HttpProxyAgent() {
    return require('http-proxy-agent').HttpProxyAgent;
  },
  get HttpsProxyAgent() {
    return require('https-proxy-agent').HttpsProxyAgent;
  },
};
