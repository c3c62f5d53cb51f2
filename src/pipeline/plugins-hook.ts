/** The oclif hook through which a plugin package hands reqflow its plugins. */
import type { Awaitable, Plugin } from './plugin.js';

/**
 * What the `reqflow:plugins` hook receives (besides oclif's `config` and `context`).
 */
export interface PluginsHookOptions {
  /**
   * reqflow's runtime API: the same object as `import * as reqflow from 'reqflow'`, handed to
   * you by the running reqflow. Take helpers and error classes from here rather than importing
   * `reqflow` at run time: a plugin installed with `reqflow plugins install` has no copy of
   * reqflow next to it, and this one is always the version that runs your plugin.
   */
  reqflow: typeof import('../runtime-api.js');
}

/**
 * The oclif hook a plugin package declares in its package.json to hand reqflow its plugins:
 *
 * ```
 * "oclif": { "hooks": { "reqflow:plugins": "./dist/hook.js" } }
 * ```
 *
 * The module's default export returns one plugin or a list. reqflow calls it once per run, only
 * for runs that need plugins; hooks of different packages may run concurrently, so a hook
 * must not depend on another package's. A value with the wrong shape is skipped with one
 * warning naming the package; a hook that throws is reported the same way.
 *
 * @example
 * ```
 * import type { PluginsHook } from 'reqflow';
 * const hook: PluginsHook = ({ reqflow }) => [createPlugin(reqflow)];
 * export default hook;
 * ```
 */
export type PluginsHook = (options: PluginsHookOptions) => Awaitable<Plugin | Plugin[] | undefined>;
