/**
 * The terminal UI's keys without a screen: the one action table behind the key map, `?` and
 * the command palette; keybinds.json checked once with one-line errors; the config folder; and
 * the request tree's folders and filter.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { configDir } from '../src/core/config-dir.js';
import type { RequestSpec } from '../src/core/model.js';
import { palette } from '../src/report/render/colors.js';
import { rowLabel, treeRows, type Catalog } from '../src/tui/catalog.js';
import { parseKeybinds } from '../src/tui/keybinds.js';
import { ACTION_NAMES, ACTIONS, DEFAULT_BINDINGS, helpLines, keyLabel, keyMap } from '../src/tui/keymap.js';
import { filterPalette, paletteRows } from '../src/tui/views/palette-overlay.js';

describe('the action table', () => {
  it('? names every action with its keys', () => {
    const help = helpLines(DEFAULT_BINDINGS)(200).join('\n');
    for (const action of ACTION_NAMES) expect(help).toContain(ACTIONS[action].what);
    expect(help).toMatch(/↓ {2}j\s+move down/);
    expect(help).toMatch(/: {2}Ctrl-P\s+the command palette/);
  });

  it('docs/tui.md lists every action with its default keys, as the table says', () => {
    const doc = readFileSync(join(ROOT, 'docs/tui.md'), 'utf8');
    for (const action of ACTION_NAMES) {
      const keys = DEFAULT_BINDINGS[action].map((key) => `\`${keyLabel(key)}\``).join(' ');
      expect(doc).toContain(`| ${keys} | ${ACTIONS[action].what} |`);
    }
  });

  it('maps keys to actions, a shifted letter under both of its names', () => {
    const map = keyMap(DEFAULT_BINDINGS);
    expect(map.get('j')).toBe('down');
    expect(map.get('G')).toBe('last');
    expect(map.get('S-g')).toBe('last');
    expect(map.get('C-p')).toBe('palette');
    expect(keyLabel('S-tab')).toBe('S-Tab');
    expect(keyLabel('pagedown')).toBe('PgDn');
  });

  it('the palette lists every action but itself, and filters on every word typed', () => {
    const rows = paletteRows(DEFAULT_BINDINGS);
    expect(rows.map((row) => row.action)).toEqual(ACTION_NAMES.filter((action) => action !== 'palette'));
    expect(filterPalette(rows, 'ENVIRON').map((row) => row.action)).toEqual(['pick-environment']);
    expect(filterPalette(rows, 'pick prof').map((row) => row.action)).toEqual(['pick-profile']);
    expect(filterPalette(rows, 'zzz')).toEqual([]);
  });
});

describe('keybinds.json', () => {
  const file = '/cfg/keybinds.json';
  const parse = (value: unknown): ReturnType<typeof parseKeybinds> => parseKeybinds(JSON.stringify(value), file);

  it('rebinds the actions it names; the others keep their defaults', () => {
    const bindings = parse({ 'pick-environment': 'Z', quit: ['q', 'C-q'] });
    expect(bindings['pick-environment']).toEqual(['Z']);
    expect(bindings.quit).toEqual(['q', 'C-q']);
    expect(bindings.reload).toEqual(['r']);
  });

  it('names the file and the action or key of the first problem', () => {
    expect(() => parseKeybinds('{', file)).toThrow(/^\/cfg\/keybinds\.json: not valid JSON/);
    expect(() => parse([1])).toThrow('/cfg/keybinds.json: expected an object of action names to keys');
    expect(() => parse({ 'pick-enviroment': 'E' })).toThrow('/cfg/keybinds.json: unknown action "pick-enviroment" (did you mean "pick-environment"?)');
    expect(() => parse({ quit: 5 })).toThrow('/cfg/keybinds.json: "quit" must be a key or a list of keys');
    expect(() => parse({ quit: ['ctrl+q'] })).toThrow('/cfg/keybinds.json: "quit": "ctrl+q" is not a key name');
    expect(() => parse({ reload: 'C-c' })).toThrow('/cfg/keybinds.json: "reload": Ctrl-C always quits and cannot be bound');
    expect(() => parse({ reload: 'C-z' })).toThrow('/cfg/keybinds.json: "reload": Ctrl-Z always suspends to the shell and cannot be bound');
    expect(() => parse({ reload: 'p' })).toThrow('/cfg/keybinds.json: key "p" is bound to both "pick-profile" and "reload"');
    expect(() => parse({ reload: 'S-g' })).toThrow('/cfg/keybinds.json: key "S-g" is bound to both "last" and "reload"');
    try {
      parse({ nope: 'x' });
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(2);
    }
  });

  it('lives in the config folder: $REQFLOW_CONFIG_DIR, else $XDG_CONFIG_HOME/reqflow, else ~/.config/reqflow', () => {
    expect(configDir({ REQFLOW_CONFIG_DIR: '/a' })).toBe('/a');
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe(join('/x', 'reqflow'));
    expect(configDir({ HOME: '/h' })).toBe(join('/h', '.config', 'reqflow'));
  });
});

describe('the request tree', () => {
  const spec = (name: string, method: string, url: string, index: number): RequestSpec => ({ name, method, url, headers: {}, annotations: {}, source: { file: 'x', line: 1, index } }) as unknown as RequestSpec;
  const catalog: Catalog = {
    root: '/w',
    truncated: false,
    files: [
      { path: '/w/a.http', label: 'a.http', specs: [spec('list users', 'GET', '{{base}}/users', 0)] },
      { path: '/w/shop/orders.http', label: 'shop/orders.http', specs: [spec('create', 'POST', '{{base}}/orders', 0), spec('list', 'GET', '{{base}}/orders', 1)] },
      { path: '/w/shop/deep/x.http', label: 'shop/deep/x.http', specs: [spec('ping', 'GET', '{{base}}/ping', 0)] },
    ],
  };
  const labels = (rows: ReturnType<typeof treeRows>): string[] => rows.map((row) => rowLabel(row, palette(false)));

  it('shows folders as nodes, files and requests indented under them', () => {
    expect(labels(treeRows(catalog))).toEqual(['▾ a.http', '  GET    list users', '▾ shop/', '  ▾ orders.http', '    POST   create', '    GET    list', '  ▾ deep/', '    ▾ x.http', '      GET    ping']);
  });

  it('folds a folder with everything under it', () => {
    expect(labels(treeRows(catalog, { collapsed: new Set(['/w/shop']) }))).toEqual(['▾ a.http', '  GET    list users', '▸ shop/']);
    expect(labels(treeRows(catalog, { collapsed: new Set(['/w/shop/deep']) }))).toEqual(['▾ a.http', '  GET    list users', '▾ shop/', '  ▾ orders.http', '    POST   create', '    GET    list', '  ▸ deep/']);
  });

  it('filters on names, file paths, URLs and methods, unfolding what matches', () => {
    const names = (filter: string): string[] => treeRows(catalog, { filter, collapsed: new Set(['/w/shop']) }).flatMap((row) => (row.kind === 'request' ? [row.spec.name] : []));
    expect(names('LIST')).toEqual(['list users', 'list']);
    expect(names('deep/')).toEqual(['ping']);
    expect(names('/orders')).toEqual(['create', 'list']);
    expect(names('post')).toEqual(['create']);
  });
});
