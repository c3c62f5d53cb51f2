import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Plugin, Stage } from './pipeline.js';
import { STAGES } from './pipeline.js';
import { entryFromPlugin, type PluginEntry } from './registry.js';

/** oclif's data folder for reqflow, where `reqflow plugins install|link` records user plugins. */
export function oclifDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REQFLOW_DATA_DIR) return env.REQFLOW_DATA_DIR;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'reqflow');
}

/**
 * True when `reqflow plugins` has installed or linked anything. The check is one small file
 * read, so a plain run with no third-party plugin never loads oclif at all.
 */
export function hasUserPlugins(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(oclifDataDir(env), 'package.json'), 'utf8')) as { oclif?: { plugins?: unknown[] } };
    return Array.isArray(pkg.oclif?.plugins) && pkg.oclif.plugins.length > 0;
  } catch {
    return false;
  }
}

/** Why a hook export is not a usable plugin, or undefined when it is. */
export function pluginShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it is not an object';
  const plugin = value as Partial<Plugin>;
  if (typeof plugin.name !== 'string' || plugin.name === '') return 'it has no "name" string';
  if (typeof plugin.stages !== 'object' || plugin.stages === null) return `plugin "${plugin.name}" has no "stages" object`;
  for (const [stage, handler] of Object.entries(plugin.stages)) {
    if (!STAGES.includes(stage as Stage)) return `plugin "${plugin.name}" has an unknown stage "${stage}" (stages: ${STAGES.join(', ')})`;
    if (typeof handler !== 'function') return `plugin "${plugin.name}" stage "${stage}" is not a function`;
  }
  if (plugin.authName !== undefined && typeof plugin.authName !== 'string') return `plugin "${plugin.name}" has a non-string "authName"`;
  if (plugin.appliesTo !== undefined && typeof plugin.appliesTo !== 'function') return `plugin "${plugin.name}" has a non-function "appliesTo"`;
  for (const key of ['before', 'after', 'extensions'] as const) {
    const list = plugin[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== 'string'))) return `plugin "${plugin.name}" has a "${key}" that is not a list of names`;
  }
  return undefined;
}

/** Minimal view of oclif's Config: enough to run our hook without importing @oclif/core here. */
export interface HookRunner {
  runHook(event: string, options: Record<string, unknown>): Promise<{ successes: Array<{ result: unknown; plugin: { name: string } }>; failures: Array<{ error: Error; plugin: { name: string } }> }>;
}

/**
 * Collects third-party plugins through the oclif hook `reqflow:plugins`. A package whose
 * export has the wrong shape is skipped with one warning naming it; a hook that throws is
 * reported the same way (oclif would otherwise swallow it).
 */
export async function collectThirdPartyPlugins(config: HookRunner, warn: (message: string) => void): Promise<PluginEntry[]> {
  const { successes, failures } = await config.runHook('reqflow:plugins', {});
  for (const failure of failures) warn(`plugin package "${failure.plugin.name}" failed to load: ${failure.error.message.split('\n')[0]}`);
  const entries: PluginEntry[] = [];
  // oclif runs hooks of different plugins concurrently; sort so the result never depends on timing.
  for (const success of [...successes].sort((a, b) => a.plugin.name.localeCompare(b.plugin.name))) {
    const exported = success.result;
    const list = Array.isArray(exported) ? exported : exported === undefined ? [] : [exported];
    for (const candidate of list) {
      const problem = pluginShapeProblem(candidate);
      if (problem) {
        warn(`skipping a plugin from package "${success.plugin.name}": ${problem}`);
        continue;
      }
      entries.push(entryFromPlugin(candidate as Plugin));
    }
  }
  return entries;
}
