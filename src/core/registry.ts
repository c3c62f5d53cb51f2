import { PluginError, UsageError } from './errors/index.js';
import type { RequestContext } from '../pipeline/context.js';
import type { Plugin, Step } from '../pipeline/plugin.js';

/**
 * A plugin as the registry knows it before loading it. Built-ins describe themselves here and
 * are imported only when a request needs them (a plain GET never loads graphql or openid-client).
 */
export interface PluginEntry {
  name: string;
  /** Stages and hooks the plugin has handlers for, known without importing it. */
  stages: readonly Step[];
  authName?: string;
  extensions?: readonly string[];
  /** Cheap test, no imports: does the plugin take part in this request? */
  appliesTo?(ctx: RequestContext): boolean;
  /** `# @annotation` names the plugin reads (see Plugin.annotations). */
  annotations?: readonly string[];
  before?: readonly string[];
  after?: readonly string[];
  builtin: boolean;
  /** The npm package a third-party plugin came from (for messages that say what to uninstall). */
  source?: string;
  load(): Promise<Plugin>;
}

/** The auth method a request asks for: `# @auth NAME`, else the profile's `auth.type`. */
export function requestedAuth(ctx: RequestContext): string | undefined {
  const name = ctx.spec.annotations.auth ?? ctx.profile.auth?.type;
  return name === undefined || name === '' || name === 'none' ? undefined : name;
}

export function entryFromPlugin(plugin: Plugin, builtin = false, source?: string): PluginEntry {
  const entry: PluginEntry = {
    name: plugin.name,
    stages: Object.keys(plugin.stages).filter((stage) => typeof plugin.stages[stage as Step] === 'function') as Step[],
    builtin,
    load: () => Promise.resolve(plugin),
  };
  if (source !== undefined) entry.source = source;
  if (plugin.authName !== undefined) entry.authName = plugin.authName;
  if (plugin.extensions !== undefined) entry.extensions = plugin.extensions;
  if (plugin.appliesTo !== undefined) entry.appliesTo = (ctx) => plugin.appliesTo?.(ctx) === true;
  if (plugin.annotations !== undefined) entry.annotations = plugin.annotations;
  if (plugin.before !== undefined) entry.before = plugin.before;
  if (plugin.after !== undefined) entry.after = plugin.after;
  return entry;
}

export class PluginRegistry {
  readonly entries: readonly PluginEntry[];
  private readonly loaded = new Map<PluginEntry, Promise<Plugin>>();
  private readonly ready = new Map<PluginEntry, Plugin>();
  private readonly orderCache = new Map<Step, PluginEntry[]>();

  /** Auth methods that several plugins claim: only requests that ask for one of them fail. */
  private readonly contested: ReadonlyMap<string, PluginEntry[]>;

  /** Built-ins first, in the order given; then third-party plugins in name order. */
  constructor(builtins: readonly PluginEntry[], thirdParty: readonly PluginEntry[] = []) {
    this.entries = [...builtins, ...[...thirdParty].sort((a, b) => compareNames(a.name, b.name))];
    this.contested = contestedAuthNames(this.entries);
  }

  /** Handlers of a stage or hook in run order: registry order, adjusted by `before`/`after`. */
  ordered(stage: Step): PluginEntry[] {
    let order = this.orderCache.get(stage);
    if (!order) {
      order = sortByConstraints(this.entries.filter((entry) => entry.stages.includes(stage)));
      this.orderCache.set(stage, order);
    }
    return order;
  }

  /** The plugin object, imported on first use. */
  load(entry: PluginEntry): Promise<Plugin> {
    let pending = this.loaded.get(entry);
    if (!pending) {
      pending = entry.load();
      this.loaded.set(entry, pending);
      void pending.then((plugin) => this.ready.set(entry, plugin)).catch(() => undefined);
    }
    return pending;
  }

  /** The plugin object when it is already imported: no await, which a batch pays per plugin per request. */
  loadedPlugin(entry: PluginEntry): Plugin | undefined {
    return this.ready.get(entry);
  }

  /**
   * Does the plugin take part in this request? A third-party `appliesTo` that throws fails the
   * request like a throwing handler: exit 70 naming the plugin and the stage.
   */
  applies(entry: PluginEntry, ctx: RequestContext, stage?: Step): boolean {
    if (entry.authName !== undefined && requestedAuth(ctx) === entry.authName) return true;
    if (entry.appliesTo) {
      if (entry.builtin) return entry.appliesTo(ctx);
      try {
        return entry.appliesTo(ctx);
      } catch (error) {
        throw new PluginError(entry.name, stage ?? 'appliesTo', error);
      }
    }
    return entry.authName === undefined && entry.extensions === undefined;
  }

  /** The plugins with a handler for this step that apply to the request, in run order. */
  applicable(step: Step, ctx: RequestContext): PluginEntry[] {
    return this.ordered(step).filter((entry) => this.applies(entry, ctx, step));
  }

  /** Does some plugin read this annotation? `x.y` belongs to plugin or auth method `x`. */
  knowsAnnotation(name: string): boolean {
    const dot = name.indexOf('.');
    const owner = dot > 0 ? name.slice(0, dot) : undefined;
    return this.entries.some((entry) => entry.annotations?.includes(name) === true || (owner !== undefined && (entry.name === owner || entry.authName === owner || entry.annotations?.includes(`${owner}.*`) === true)));
  }

  /** Every annotation name some plugin reads, for "did you mean" hints. */
  annotationNames(): string[] {
    return [...new Set(this.entries.flatMap((entry) => (entry.annotations ?? []).filter((name) => !name.endsWith('.*'))))];
  }

  /** Parse plugins for a file extension. */
  parsersFor(extension: string): PluginEntry[] {
    return this.ordered('parse').filter((entry) => entry.extensions === undefined || entry.extensions.includes(extension));
  }

  /** True when some plugin's `parse` names this extension (a format a third-party plugin adds). */
  claimsExtension(extension: string): boolean {
    return this.entries.some((entry) => entry.extensions?.includes(extension) === true);
  }

  /**
   * Fails clearly (exit 2) when the request asks for an auth method that no plugin provides,
   * or that several plugins claim (naming them all).
   */
  checkAuthAvailable(ctx: RequestContext): void {
    const name = requestedAuth(ctx);
    if (name === undefined) return;
    const claimants = this.contested.get(name);
    if (claimants) {
      const names = claimants.map(describeEntry);
      const removable = claimants.filter((entry) => !entry.builtin).map((entry) => entry.source ?? entry.name);
      const who = `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''} ${names.length === 2 ? 'both' : 'all'}`;
      throw new UsageError(`${who} provide auth method "${name}" (request "${ctx.spec.name}")`, {
        hint: `uninstall all but one of them, e.g. reqflow plugins uninstall ${removable.at(-1) ?? ''}`,
      });
    }
    if (this.entries.some((entry) => entry.authName === name)) return;
    const known = [...new Set(this.entries.filter((e) => e.authName !== undefined).map((e) => e.authName))];
    throw new UsageError(`no plugin provides auth method "${name}" (request "${ctx.spec.name}")`, {
      hint: `known methods: ${known.join(', ')}; list installed plugins with: reqflow plugins; add one with: reqflow plugins install <package> (or reqflow plugins link DIR)`,
    });
  }
}

/** `plugin "auth-hmac" (package reqflow-plugin-auth-hmac)`, or `built-in plugin "auth-bearer"`. */
function describeEntry(entry: PluginEntry): string {
  if (entry.builtin) return `built-in plugin "${entry.name}"`;
  return entry.source !== undefined && entry.source !== entry.name ? `plugin "${entry.name}" (package ${entry.source})` : `plugin "${entry.name}"`;
}

/** Plain code-point order: the same on every machine, whatever the locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function contestedAuthNames(entries: readonly PluginEntry[]): Map<string, PluginEntry[]> {
  const owners = new Map<string, PluginEntry[]>();
  for (const entry of entries) {
    if (entry.authName === undefined) continue;
    owners.set(entry.authName, [...(owners.get(entry.authName) ?? []), entry]);
  }
  const contested = new Map<string, PluginEntry[]>();
  for (const [name, claimants] of owners) {
    if (claimants.length < 2) continue;
    // Two built-ins claiming one name is a bug in reqflow itself, not something a user can fix.
    if (claimants.every((entry) => entry.builtin)) throw new Error(`built-in plugins ${claimants.map((e) => e.name).join(', ')} both claim auth method "${name}"`);
    contested.set(name, claimants);
  }
  return contested;
}

/** Stable topological sort: keeps registry order except where `before`/`after` say otherwise. */
function sortByConstraints(entries: PluginEntry[]): PluginEntry[] {
  const names = new Set(entries.map((e) => e.name));
  const after = new Map<string, Set<string>>(entries.map((e) => [e.name, new Set<string>()]));
  for (const entry of entries) {
    for (const other of entry.after ?? []) if (names.has(other)) after.get(entry.name)?.add(other);
    for (const other of entry.before ?? []) if (names.has(other)) after.get(other)?.add(entry.name);
  }
  // Depth-first in registry order: an entry's prerequisites are placed just before it, so
  // `before: ['x']` moves a plugin to just ahead of x without reshuffling anything else.
  const byName = new Map(entries.map((e) => [e.name, e]));
  const result: PluginEntry[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (entry: PluginEntry): void => {
    if (placed.has(entry.name)) return;
    if (visiting.has(entry.name)) {
      throw new UsageError(`plugins ${[...visiting].join(', ')} have contradictory before/after ordering`);
    }
    visiting.add(entry.name);
    for (const dep of after.get(entry.name) ?? []) place(byName.get(dep) as PluginEntry);
    visiting.delete(entry.name);
    placed.add(entry.name);
    result.push(entry);
  };
  for (const entry of entries) place(entry);
  return result;
}
