/**
 * The variable editor's model and writes (`v`): rows from the profiles file (restcli's
 * multi-value form, masking, which source wins), each edit as a surgical change of one
 * profile's `variables` — comments, unknown keys and other profiles stay byte for byte — and the
 * CLI reading the same file (JSONC, the active option as the value, errors naming the field).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import { loadProfiles, parseProfiles } from '../src/core/profiles.js';
import { saveProfileEdit } from '../src/tui/profiles-writer.js';
import { checkVariableName, cycledOption, editorRows } from '../src/tui/variables/editor-rows.js';
import { applyVariableEdit, rawVariables, type VariableEdit } from '../src/tui/variables/variable-edit.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startDemoApi } from './servers/demo-api.js';

const dir = tempDir('reqflow-variables-edit-');
afterAll(() => dir.cleanup());

/** A profiles file as a user keeps it: comments, keys reqflow does not know, restcli's multi-value form. */
const COMMENTED = `// team profiles — keep the comments
{
  "$schema": "./profiles.schema.json",
  "profiles": [
    {
      "name": "dev",
      "editor": "vim", // restcli's key: not ours, kept
      "variables": {
        /* where the API runs */
        "baseUrl": {
          "options": ["http://127.0.0.1:1", "https://staging.example.com", "https://api.example.com"],
          "active": "staging",
          "description": "API host",
          "aliases": { "local": 0, "staging": 1 }
        },
        "userId": "42", // the test user
        "apiToken": "tok-abcdef-123456",
        "password": { "value": "", "interactive": true, "secret": true },
      },
      "x-team": { "owner": "api" }
    },
    { "name": "prod", "variables": { "baseUrl": "https://api.example.com" } }
  ]
}
`;

const edit = (text: string, change: VariableEdit, profile = 'dev'): string => applyVariableEdit(text, 'p.json', profile, change);
const profileOf = (text: string, name = 'dev') => {
  const found = parseProfiles(JSON.stringify(parseJsonc(text, [], { allowTrailingComma: true })), 'p.json').find((p) => p.name === name);
  if (!found) throw new Error(`no profile ${name}`);
  return found;
};

describe('rows of the editor', () => {
  it('reads the profile as written: multi-value options, the active one (an alias), aliases per option, secrets masked', () => {
    const raw = rawVariables(COMMENTED, 'p.json', 'dev');
    expect(raw.map(([name]) => name)).toEqual(['baseUrl', 'userId', 'apiToken', 'password']);
    const rows = editorRows(raw, [{ name: 'userId', source: '-e', value: '7' }, { name: 'region', source: 'environment', value: 'eu', note: 'environment dev' }], (v) => v);
    const byName = Object.fromEntries(rows.map((row) => [`${row.source}:${row.name}`, row]));
    expect(byName['profile:baseUrl']).toMatchObject({ value: 'https://staging.example.com', active: 1, editable: true, description: 'API host' });
    expect(byName['profile:baseUrl']?.options?.map((o) => o.aliases)).toEqual([['local'], ['staging'], []]);
    expect(byName['profile:apiToken']).toMatchObject({ value: '•••', secret: true });
    expect(byName['profile:password']).toMatchObject({ value: '•••', secret: true, note: 'interactive, asked when sent' });
    expect(byName['profile:userId']).toMatchObject({ value: '42', note: '-e wins' });
    expect(byName['-e:userId']).toMatchObject({ value: '7', editable: false });
    expect(byName['environment:region']).toMatchObject({ value: 'eu', editable: false, note: 'environment dev' });
    expect(JSON.stringify(rows)).not.toContain('tok-abcdef-123456');
  });

  it('cycles options both ways, wrapping; a plain variable has none', () => {
    const [row] = editorRows(rawVariables(COMMENTED, 'p.json', 'dev'), [], (v) => v);
    expect(row && [cycledOption(row, 1), cycledOption(row, -1)]).toEqual([2, 0]);
    expect(cycledOption({ ...row!, active: 2 }, 1)).toBe(0);
    expect(cycledOption(editorRows([['x', { form: 'plain', value: 'y' }]], [], (v) => v)[0]!, 1)).toBeUndefined();
  });

  it('checks new names', () => {
    expect(checkVariableName('base_url.v2')).toBeUndefined();
    expect(checkVariableName('')).toMatch(/needs a name/);
    expect(checkVariableName('a b')).toMatch(/not a variable name/);
    expect(checkVariableName('$uuid')).toMatch(/not a variable name/);
  });
});

describe('edits keep everything else of the file', () => {
  /** The bytes before and after the one changed region. */
  function changedRegion(before: string, after: string): { removed: string; added: string } {
    let start = 0;
    while (start < before.length && before[start] === after[start]) start++;
    let end = 0;
    while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
    return { removed: before.slice(start, before.length - end), added: after.slice(start, after.length - end) };
  }

  it('sets a plain value in place (comments beside it stay)', () => {
    const after = edit(COMMENTED, { kind: 'set', name: 'userId', value: '43' });
    expect(changedRegion(COMMENTED, after)).toEqual({ removed: '2', added: '3' });
    expect(after).toContain('"userId": "43", // the test user');
  });

  it('sets the active option of a multi-value variable, and an interactive variable\'s default', () => {
    const after = edit(COMMENTED, { kind: 'set', name: 'baseUrl', value: 'https://staging2.example.com' });
    expect(after).toContain('"options": ["http://127.0.0.1:1", "https://staging2.example.com", "https://api.example.com"]');
    expect(profileOf(after).variables.baseUrl).toBe('https://staging2.example.com');
    const prompt = edit(COMMENTED, { kind: 'set', name: 'password', value: 'default-pw' });
    expect(prompt).toContain('"password": { "value": "default-pw", "interactive": true, "secret": true }');
  });

  it('switches the active option: the profile resolves to it', () => {
    const after = edit(COMMENTED, { kind: 'activate', name: 'baseUrl', index: 0 });
    expect(changedRegion(COMMENTED, after)).toEqual({ removed: '"staging"', added: '0' });
    expect(profileOf(after).variables.baseUrl).toBe('http://127.0.0.1:1');
    expect(() => edit(COMMENTED, { kind: 'activate', name: 'baseUrl', index: 3 })).toThrow(/has no option 3/);
    expect(() => edit(COMMENTED, { kind: 'activate', name: 'userId', index: 0 })).toThrow(/userId of profile "dev" has one value/);
  });

  it('adds, renames and removes aliases', () => {
    const added = edit(COMMENTED, { kind: 'alias', name: 'baseUrl', alias: 'prod', index: 2 });
    expect(added).toContain('"aliases": { "local": 0, "staging": 1, "prod": 2 }');
    const renamed = edit(added, { kind: 'alias', name: 'baseUrl', alias: 'live', index: 2, replaces: 'prod' });
    expect(renamed).toContain('"aliases": { "local": 0, "staging": 1, "live": 2 }');
    const removed = edit(renamed, { kind: 'alias', name: 'baseUrl', alias: '', index: 2, replaces: 'live' });
    expect(removed).toBe(COMMENTED);
    expect(() => edit(COMMENTED, { kind: 'alias', name: 'baseUrl', alias: 'local', index: 2 })).toThrow(/already has an alias "local" \(option 0\)/);
  });

  it('adds options: a plain variable becomes multi-value, its value the first option, the new one active', () => {
    const plain = edit(COMMENTED, { kind: 'add-option', name: 'userId', value: '99' });
    expect(plain).toContain('"userId": {\n          "options": [\n            "42",\n            "99"\n          ],\n          "active": 1\n        }, // the test user');
    expect(profileOf(plain).variables.userId).toBe('99');
    const multi = edit(COMMENTED, { kind: 'add-option', name: 'baseUrl', value: 'http://localhost:8080' });
    expect(profileOf(multi).variables.baseUrl).toBe('http://localhost:8080');
    expect(() => edit(COMMENTED, { kind: 'add-option', name: 'password', value: 'x' })).toThrow(/interactive/);
  });

  it('adds and removes variables; a profile without variables (or missing) gets them', () => {
    const added = edit(COMMENTED, { kind: 'set', name: 'tenant', value: 'acme' });
    expect(profileOf(added).variables.tenant).toBe('acme');
    const removed = edit(added, { kind: 'remove', name: 'tenant' });
    expect(removed).toBe(COMMENTED);
    const gone = edit(COMMENTED, { kind: 'remove', name: 'userId' });
    expect(gone).not.toContain('userId');
    expect(gone).toContain('/* where the API runs */');
    expect(gone).toContain('"apiToken": "tok-abcdef-123456",');
    const bare = applyVariableEdit('[{"name":"a"}]', 'p.json', 'a', { kind: 'set', name: 'x', value: '1' });
    expect(bare).toBe('[{"name":"a", "variables": {"x": "1"}}]');
    const fresh = applyVariableEdit('[]\n', 'p.json', 'new', { kind: 'set', name: 'x', value: '1' });
    expect(JSON.parse(fresh)).toEqual([{ name: 'new', variables: { x: '1' } }]);
  });
});

describe('saving', () => {
  it('writes atomically, keeps comments, unknown keys, other profiles and the mode', async () => {
    const path = dir.write('keep/.profiles.json', COMMENTED);
    chmodSync(path, 0o640);
    await saveProfileEdit(path, 'dev', 'variables', (text) => applyVariableEdit(text, path, 'dev', { kind: 'activate', name: 'baseUrl', index: 2 }));
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(COMMENTED.replace('"active": "staging"', '"active": 2'));
    expect(statSync(path).mode & 0o777).toBe(0o640);
    const { profiles } = await loadProfiles(path);
    expect(profiles.find((p) => p.name === 'dev')?.variables.baseUrl).toBe('https://api.example.com');
  });

  it('refuses a file it cannot read, and an edit that would change more than the variables', async () => {
    const path = dir.write('broken/.profiles.json', '[{"name": "a", "variables": {"x": "1"}');
    await expect(saveProfileEdit(path, 'a', 'variables', (text) => applyVariableEdit(text, path, 'a', { kind: 'set', name: 'x', value: '2' }))).rejects.toThrow(/cannot update .*\.profiles\.json:1:\d+: it is not valid JSON/);
    expect(readFileSync(path, 'utf8')).toBe('[{"name": "a", "variables": {"x": "1"}');
    const other = dir.write('other/.profiles.json', '[{"name": "a", "headers": {"X": "1"}}]');
    await expect(saveProfileEdit(other, 'a', 'variables', (text) => text.replace('"1"', '"2"'))).rejects.toThrow(/would change more than the variables of "a"/);
    expect(readFileSync(other, 'utf8')).toBe('[{"name": "a", "headers": {"X": "1"}}]');
  });
});

describe('the CLI reads the same file', () => {
  it('sends with the active option of a multi-value variable, from a profiles file with comments', async () => {
    const api = await startDemoApi();
    try {
      const folder = tempDir('reqflow-variables-cli-');
      folder.write('.profiles.json', COMMENTED.replace('"http://127.0.0.1:1"', JSON.stringify(api.url)).replace('"active": "staging"', '"active": "local"'));
      folder.write('users.http', 'GET {{baseUrl}}/users\n');
      const result = await runCli(['run', 'users.http', '-p', 'dev', '-o', 'raw'], { cwd: folder.dir, env: { REQFLOW_STATE_DIR: `${folder.dir}/state` } });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Ada Lovelace');
      folder.cleanup();
    } finally {
      await api.close();
    }
  });

  it('names the field of a bad multi-value variable (exit 2)', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ options: [] }, /profiles\[0\]\.variables\.v\.options: expected a non-empty array/],
      [{ options: ['a'], active: 'nope' }, /profiles\[0\]\.variables\.v\.active: expected an index from 0 to 0 or one of the aliases/],
      [{ options: ['a', 'b'], aliases: { prod: 5 } }, /profiles\[0\]\.variables\.v\.aliases\.prod: expected an index from 0 to 1/],
      [{ options: ['a'], aliases: [] }, /profiles\[0\]\.variables\.v\.aliases: expected an object/],
    ];
    for (const [variable, message] of cases) {
      expect(() => parseProfiles(JSON.stringify([{ name: 'a', variables: { v: variable } }]), 'p.json')).toThrow(message);
    }
  });
});
