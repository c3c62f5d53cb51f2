import type { PluginsHook } from 'reqflow';
import { createHmacPlugin } from './plugin.js';

/** Declared in package.json as the oclif hook `reqflow:plugins`: reqflow calls it to get the plugin. */
const hook: PluginsHook = ({ reqflow }) => createHmacPlugin(reqflow);
export default hook;
