/**
 * What completion knows of reqflow's commands: their flags, arguments and topics, read from the
 * oclif manifests of reqflow and its bundled plugins (oclif's Config only when it must be).
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasUserPlugins } from '../core/user-plugins.js';

/** A flag as oclif's manifest (or its Config) describes it: the fields completion reads. */
export interface FlagInfo {
  name: string;
  char?: string;
  type: 'boolean' | 'option';
  multiple?: boolean;
  allowNo?: boolean;
  options?: readonly string[];
  helpValue?: string;
  hidden?: boolean;
  summary?: string;
  description?: string;
}

export interface CommandInfo {
  id: string;
  hidden?: boolean;
  aliases?: readonly string[];
  summary?: string;
  description?: string;
  flags: Record<string, FlagInfo>;
  args: Record<string, { options?: readonly string[] }>;
}

export interface CommandTable {
  /** By id (`oauth:login`) and alias; hidden commands left out. */
  commands: Map<string, CommandInfo>;
  /** Topic descriptions (`oauth`). */
  topics: Map<string, string>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The folder of an installed package, found as Node finds it (plugins keep package.json out of their exports). */
function packageFolder(name: string): string {
  const require = createRequire(join(ROOT, 'package.json'));
  for (const folder of require.resolve.paths(name) ?? []) {
    const candidate = join(folder, name);
    if (statSync(join(candidate, 'package.json'), { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  throw new Error(`${name} is not installed`);
}

/**
 * The commands from the oclif manifests of reqflow and its bundled plugins — what oclif itself
 * reads, in a few milliseconds. oclif's Config only when a user plugin is installed or a
 * manifest is missing: only oclif knows where those commands are.
 */
export async function commandTable(): Promise<CommandTable> {
  const pjson = readJson(join(ROOT, 'package.json')) as { oclif: { plugins?: string[]; topics?: Record<string, { description?: string }> } };
  const topics = new Map(Object.entries(pjson.oclif.topics ?? {}).map(([name, topic]) => [name, topic.description ?? '']));
  let commands: CommandInfo[] | undefined;
  if (!hasUserPlugins()) {
    try {
      const manifests = [join(ROOT, 'oclif.manifest.json'), ...(pjson.oclif.plugins ?? []).map((name) => join(packageFolder(name), 'oclif.manifest.json'))];
      commands = manifests.flatMap((path) => Object.values((readJson(path) as { commands: Record<string, CommandInfo> }).commands));
    } catch {
      // a plugin without a manifest: oclif finds its commands below
    }
  }
  if (!commands) {
    const { Config } = await import('@oclif/core/config');
    const config = await Config.load(ROOT);
    commands = config.commands as unknown as CommandInfo[];
    for (const topic of config.topics) if (!topics.has(topic.name)) topics.set(topic.name, topic.description ?? '');
  }
  const byId = new Map<string, CommandInfo>();
  for (const command of commands) {
    if (command.hidden) continue;
    for (const id of [command.id, ...(command.aliases ?? [])]) byId.set(id, command);
  }
  return { commands: byId, topics };
}

/** Whether `id` is a topic: some command's id goes on under it. */
export function isTopic(table: CommandTable, id: string): boolean {
  return [...table.commands.keys()].some((key) => key.startsWith(`${id}:`));
}

export function findFlag(command: CommandInfo | undefined, word: string): { flag: FlagInfo; attached?: string } | undefined {
  const flags = Object.values(command?.flags ?? {});
  if (word.startsWith('--')) {
    const name = word.slice(2);
    const flag = flags.find((f) => f.name === name) ?? flags.find((f) => f.allowNo === true && `no-${f.name}` === name);
    return flag ? { flag } : undefined;
  }
  // -p, and -pstaging: a short option's value may be attached
  const flag = flags.find((f) => f.char === word[1]);
  if (!flag) return undefined;
  return flag.type === 'option' && word.length > 2 ? { flag, attached: word.slice(2) } : { flag };
}
