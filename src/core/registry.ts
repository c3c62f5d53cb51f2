import { UsageError } from './errors/index.js';
import type { Plugin, RequestContext, Stage } from './pipeline.js';

/**
 * A plugin as the registry knows it before loading it. Built-ins describe themselves here and
 * are imported only when a request needs them (a plain GET never loads graphql or openid-client).
 */
export interface PluginEntry {
  name: string;
  /** Stages the plugin has handlers for, known without importing it. */
  stages: readonly Stage[];
  authName?: string;
  extensions?: readonly string[];
  /** Cheap test, no imports: does the plugin take part in this request? */
  appliesTo?(ctx: RequestContext): boolean;
  before?: readonly string[];
  after?: readonly string[];
  builtin: boolean;
  load(): Promise<Plugin>;
}

/** The auth method a request asks for: `# @auth NAME`, else the profile's `auth.type`. */
export function requestedAuth(ctx: RequestContext): string | undefined {
  const name = ctx.spec.annotations.auth ?? ctx.profile.auth?.type;
  return name === undefined || name === '' || name === 'none' ? undefined : name;
}

export function entryFromPlugin(plugin: Plugin, builtin = false): PluginEntry {
  const entry: PluginEntry = {
    name: plugin.name,
    stages: Object.keys(plugin.stages).filter((stage) => typeof plugin.stages[stage as Stage] === 'function') as Stage[],
    builtin,
    load: () => Promise.resolve(plugin),
  };
  if (plugin.authName !== undefined) entry.authName = plugin.authName;
  if (plugin.extensions !== undefined) entry.extensions = plugin.extensions;
  if (plugin.appliesTo !== undefined) entry.appliesTo = (ctx) => plugin.appliesTo?.(ctx) === true;
  if (plugin.before !== undefined) entry.before = plugin.before;
  if (plugin.after !== undefined) entry.after = plugin.after;
  return entry;
}

export class PluginRegistry {
  readonly entries: readonly PluginEntry[];
  private readonly loaded = new Map<string, Promise<Plugin>>();
  private readonly orderCache = new Map<Stage, PluginEntry[]>();

  /** Built-ins first, in the order given; then third-party plugins in name order. */
  constructor(builtins: readonly PluginEntry[], thirdParty: readonly PluginEntry[] = []) {
    this.entries = [...builtins, ...[...thirdParty].sort((a, b) => a.name.localeCompare(b.name))];
    checkAuthNames(this.entries);
  }

  /** Handlers of a stage in run order: registry order, adjusted by `before`/`after`. */
  ordered(stage: Stage): PluginEntry[] {
    let order = this.orderCache.get(stage);
    if (!order) {
      order = sortByConstraints(this.entries.filter((entry) => entry.stages.includes(stage)));
      this.orderCache.set(stage, order);
    }
    return order;
  }

  /** The plugin object, imported on first use. */
  load(entry: PluginEntry): Promise<Plugin> {
    let pending = this.loaded.get(entry.name);
    if (!pending) {
      pending = entry.load();
      this.loaded.set(entry.name, pending);
    }
    return pending;
  }

  applies(entry: PluginEntry, ctx: RequestContext): boolean {
    if (entry.authName !== undefined && requestedAuth(ctx) === entry.authName) return true;
    if (entry.appliesTo) return entry.appliesTo(ctx);
    return entry.authName === undefined && entry.extensions === undefined;
  }

  /** Parse plugins for a file extension. */
  parsersFor(extension: string): PluginEntry[] {
    return this.ordered('parse').filter((entry) => entry.extensions === undefined || entry.extensions.includes(extension));
  }

  /** Fails clearly when `# @auth NAME` names a method no plugin provides. */
  checkAuthAvailable(ctx: RequestContext): void {
    const name = requestedAuth(ctx);
    if (name === undefined) return;
    if (this.entries.some((entry) => entry.authName === name)) return;
    const known = this.entries.filter((e) => e.authName !== undefined).map((e) => e.authName);
    throw new UsageError(`no plugin provides auth method "${name}" (request "${ctx.spec.name}")`, {
      hint: `known methods: ${known.join(', ')}; install a plugin with: reqflow plugins install <package> (or reqflow plugins link DIR)`,
    });
  }
}

function checkAuthNames(entries: readonly PluginEntry[]): void {
  const owners = new Map<string, string>();
  for (const entry of entries) {
    if (entry.authName === undefined) continue;
    const owner = owners.get(entry.authName);
    if (owner !== undefined) {
      throw new UsageError(`plugins "${owner}" and "${entry.name}" both provide auth method "${entry.authName}"`, { hint: 'uninstall one of them with: reqflow plugins uninstall NAME' });
    }
    owners.set(entry.authName, entry.name);
  }
}

/** Stable topological sort: keeps registry order except where `before`/`after` say otherwise. */
function sortByConstraints(entries: PluginEntry[]): PluginEntry[] {
  const names = new Set(entries.map((e) => e.name));
  const after = new Map<string, Set<string>>(entries.map((e) => [e.name, new Set<string>()]));
  for (const entry of entries) {
    for (const other of entry.after ?? []) if (names.has(other)) after.get(entry.name)?.add(other);
    for (const other of entry.before ?? []) if (names.has(other)) after.get(other)?.add(entry.name);
  }
  const result: PluginEntry[] = [];
  const placed = new Set<string>();
  while (result.length < entries.length) {
    const next = entries.find((e) => !placed.has(e.name) && [...(after.get(e.name) ?? [])].every((dep) => placed.has(dep)));
    if (!next) {
      const stuck = entries.filter((e) => !placed.has(e.name)).map((e) => e.name);
      throw new UsageError(`plugins ${stuck.join(', ')} have contradictory before/after ordering`);
    }
    result.push(next);
    placed.add(next.name);
  }
  return result;
}
