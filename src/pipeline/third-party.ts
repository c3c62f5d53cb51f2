import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTIN_PLUGINS } from './builtins.js';
import type { PluginsHookOptions } from './plugins-hook.js';
import type { Plugin, Stage } from './plugin.js';
import { STAGES } from './plugin.js';
import { compareNames, entryFromPlugin, type PluginEntry } from '../core/registry.js';

/** The oclif hook third-party packages declare in their package.json `oclif.hooks`. */
const PLUGINS_HOOK = 'reqflow:plugins';

/** A hook that has not answered by then is reported and skipped, so a bad plugin cannot hang every run. */
const HOOK_TIMEOUT_MS = 10_000;

/** Why a hook export is not a usable plugin, or undefined when it is. */
export function pluginShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `it returned ${value === null ? 'null' : typeof value}, not a plugin object`;
  const plugin = value as Partial<Plugin>;
  if (typeof plugin.name !== 'string' || plugin.name === '') return 'a plugin has no "name" string';
  if (typeof plugin.stages !== 'object' || plugin.stages === null) return `plugin "${plugin.name}" has no "stages" object`;
  for (const [stage, handler] of Object.entries(plugin.stages)) {
    if (!STAGES.includes(stage as Stage)) return `plugin "${plugin.name}" has an unknown stage "${stage}" (stages: ${STAGES.join(', ')})`;
    if (typeof handler !== 'function') return `plugin "${plugin.name}" stage "${stage}" is not a function`;
  }
  if (plugin.authName !== undefined && (typeof plugin.authName !== 'string' || plugin.authName === '')) return `plugin "${plugin.name}" has an "authName" that is not a non-empty string`;
  if (plugin.appliesTo !== undefined && typeof plugin.appliesTo !== 'function') return `plugin "${plugin.name}" has an "appliesTo" that is not a function`;
  for (const key of ['before', 'after', 'extensions'] as const) {
    const list = plugin[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== 'string'))) return `plugin "${plugin.name}" has a "${key}" that is not a list of names`;
  }
  return undefined;
}

interface HookOutcome {
  successes: Array<{ result: unknown; plugin: { name: string } }>;
  failures: Array<{ error: Error; plugin: { name: string } }>;
}

/** Minimal view of oclif's Config: enough to run our hook without importing @oclif/core here. */
export interface HookRunner {
  runHook(event: string, options: Record<string, unknown>, timeout?: number, captureErrors?: boolean): Promise<HookOutcome>;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function byName(a: { plugin: { name: string } }, b: { plugin: { name: string } }): number {
  return compareNames(a.plugin.name, b.plugin.name);
}

/**
 * Collects third-party plugins through the oclif hook `reqflow:plugins`. A package whose
 * export has the wrong shape is skipped with one warning naming it; a hook that throws or
 * hangs is reported the same way (oclif would otherwise swallow it). The result never depends
 * on the order in which oclif's concurrent hooks finish.
 */
export async function collectThirdPartyPlugins(config: HookRunner, warn: (message: string) => void): Promise<PluginEntry[]> {
  const { settings } = await import('@oclif/core/settings');
  // Linked ESM plugins run from their compiled `dist`: oclif cannot transpile them, and would
  // say so on every run.
  settings.enableAutoTranspile ??= false;
  const options: PluginsHookOptions = { reqflow: await import('../runtime-api.js') };
  const { successes, failures } = await config.runHook(PLUGINS_HOOK, options as unknown as Record<string, unknown>, HOOK_TIMEOUT_MS, true);
  const remedy = (source: string): string => ` (remove it with: reqflow plugins uninstall ${source})`;
  for (const failure of [...failures].sort(byName)) warn(`skipping plugin package "${failure.plugin.name}": its ${PLUGINS_HOOK} hook failed: ${firstLine(failure.error)}${remedy(failure.plugin.name)}`);
  const taken = new Map<string, string>(BUILTIN_PLUGINS.map((entry) => [entry.name, 'a built-in plugin']));
  const entries: PluginEntry[] = [];
  for (const success of [...successes].sort(byName)) {
    const source = success.plugin.name;
    const exported = success.result;
    const list = Array.isArray(exported) ? exported : exported === undefined ? [] : [exported];
    for (const candidate of list) {
      const problem = pluginShapeProblem(candidate);
      if (problem) {
        warn(`skipping a plugin from package "${source}": ${problem}${remedy(source)}`);
        continue;
      }
      const plugin = candidate as Plugin;
      const owner = taken.get(plugin.name);
      if (owner !== undefined) {
        warn(`skipping plugin "${plugin.name}" from package "${source}": ${owner} has that name`);
        continue;
      }
      taken.set(plugin.name, `package "${source}"`);
      entries.push(entryFromPlugin(plugin, false, source));
    }
  }
  return entries;
}

/**
 * The installed third-party plugins of a run (installed-plugins.ts asks first whether there
 * are any): oclif's Config finds the installed and linked packages, and the hook runs.
 */
export async function loadInstalledPlugins(warn: (message: string) => void): Promise<PluginEntry[]> {
  // The config module alone, not all of @oclif/core (help, parser, ux): a run needs none of that.
  const { Config } = await import('@oclif/core/config');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { oclif: Record<string, unknown> };
  // Only user plugins can declare our hook: leave out the bundled ones (help, plugins), whose
  // manifests would otherwise be read on every run.
  const config = await withWarningsAs(warn, () => Config.load({ root, pjson: { ...pjson, oclif: { ...pjson.oclif, plugins: [] } } as never }));
  return collectThirdPartyPlugins(config as unknown as HookRunner, warn);
}

/**
 * oclif reports a plugin it cannot load (a linked folder that was deleted) as a multi-line
 * Node process warning; during `run` say it in reqflow's one-line form instead.
 */
async function withWarningsAs<T>(warn: (message: string) => void, run: () => Promise<T>): Promise<T> {
  const original = process.emitWarning;
  const captured: string[] = [];
  process.emitWarning = ((warning: string | Error) => void captured.push(firstLine(warning))) as typeof process.emitWarning;
  try {
    return await run();
  } finally {
    process.emitWarning = original;
    for (const message of captured) warn(`a plugin could not be loaded: ${message} (see reqflow plugins; remove it with: reqflow plugins uninstall NAME)`);
  }
}
