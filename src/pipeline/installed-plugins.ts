/**
 * The third-party plugins of a plain run: when nothing is installed (the common case) this is
 * one file read, and the loader (third-party.ts: oclif's Config, the hook) is never read.
 */
import type { PluginEntry } from '../core/registry.js';
import { hasUserPlugins } from '../core/user-plugins.js';

export async function loadUserPlugins(warn: (message: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<PluginEntry[]> {
  if (!hasUserPlugins(env)) return [];
  return (await import('./third-party.js')).loadInstalledPlugins(warn);
}
