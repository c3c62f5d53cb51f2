import { describe, expect, test } from '@jest/globals';
import { PluginRegistry, entryFromPlugin, type PluginEntry } from '../src/core/registry.js';
import type { Plugin, Stage } from '../src/pipeline/plugin.js';
import type { RequestContext } from '../src/pipeline/context.js';
import { thrownBy } from './helpers/expect-error.js';

function entry(name: string, stages: Stage[], extra: Partial<PluginEntry> = {}, loads: string[] = []): PluginEntry {
  return {
    name,
    stages,
    builtin: true,
    load: async () => {
      loads.push(name);
      return { name, stages: {} } as Plugin;
    },
    ...extra,
  };
}

const ctx = (annotations: Record<string, string> = {}, authType?: string) =>
  ({ spec: { annotations }, profile: authType ? { auth: { type: authType } } : {} }) as unknown as RequestContext;


describe('plugin registry', () => {
  test('built-ins first in order, third-party by name, then before/after', () => {
    const registry = new PluginRegistry(
      [entry('core-a', ['auth']), entry('core-b', ['auth'])],
      [entry('zeta', ['auth'], { builtin: false, before: ['core-a'] }), entry('alpha', ['auth'], { builtin: false }), entry('mid', ['auth'], { builtin: false, after: ['zeta', 'unknown-name'] })],
    );
    expect(registry.ordered('auth').map((e) => e.name)).toEqual(['zeta', 'core-a', 'core-b', 'alpha', 'mid']);
    expect(registry.ordered('send')).toEqual([]);
  });

  test('contradictory ordering is exit 2', () => {
    const registry = new PluginRegistry([entry('a', ['auth'], { before: ['b'] }), entry('b', ['auth'], { before: ['a'] })]);
    expect(thrownBy(() => registry.ordered('auth')).message).toMatch(/contradictory before\/after/);
  });

  test('applicability: auth name by annotation or profile, predicate, always', () => {
    const registry = new PluginRegistry([]);
    const auth = entry('auth-x', ['auth'], { authName: 'x' });
    expect(registry.applies(auth, ctx({ auth: 'x' }))).toBe(true);
    expect(registry.applies(auth, ctx({}, 'x'))).toBe(true);
    expect(registry.applies(auth, ctx({ auth: 'none' }, 'x'))).toBe(false);
    expect(registry.applies(auth, ctx({ auth: 'y' }, 'x'))).toBe(false);
    expect(registry.applies(entry('p', ['render'], { appliesTo: (c) => c.spec.annotations.protocol === 'graphql' }), ctx({ protocol: 'graphql' }))).toBe(true);
    expect(registry.applies(entry('always', ['render']), ctx())).toBe(true);
    expect(registry.applies(entry('format', ['parse'], { extensions: ['x'] }), ctx())).toBe(false);
  });

  test('an unknown auth method is exit 2 with a hint to install a plugin', () => {
    const registry = new PluginRegistry([entry('auth-basic', ['auth'], { authName: 'basic' })]);
    const error = thrownBy(() => registry.checkAuthAvailable({ ...ctx({ auth: 'hmac' }), spec: { name: 'r', annotations: { auth: 'hmac' } } } as unknown as RequestContext));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('no plugin provides auth method "hmac" (request "r")');
    expect(error.hint).toMatch(/reqflow plugins install/);
  });

  test('plugins are loaded once, and only when asked', async () => {
    const loads: string[] = [];
    const lazy = entry('lazy', ['render'], {}, loads);
    const registry = new PluginRegistry([lazy, entry('unused', ['render'], {}, loads)]);
    await registry.load(lazy);
    await registry.load(lazy);
    expect(loads).toEqual(['lazy']);
  });

  test('entryFromPlugin reads stages from the handlers', () => {
    const plugin: Plugin = { name: 'p', authName: 'p', stages: { auth: (c) => c, render: (c) => c } };
    expect(entryFromPlugin(plugin)).toMatchObject({ name: 'p', authName: 'p', stages: ['auth', 'render'], builtin: false });
  });
});
