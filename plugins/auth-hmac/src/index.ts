/** For servers and tests that verify signatures, and for hosts that embed the plugin. */
export { createHmacPlugin, DEFAULTS, type HmacSettings } from './plugin.js';
export { ALGORITHMS, canonicalString, isAlgorithm, sign, verify, type Algorithm, type Signable } from './sign.js';
