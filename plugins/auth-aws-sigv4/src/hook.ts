import type { PluginsHook } from 'reqflow';
import { createSigV4Plugin } from './plugin.js';

/** Declared in package.json as the oclif hook `reqflow:plugins`: reqflow calls it to get the plugin. */
const hook: PluginsHook = ({ reqflow }) => createSigV4Plugin(reqflow);
export default hook;
