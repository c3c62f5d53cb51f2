/**
 * Saving OAuth settings from the UI into `.profiles.json`: only the touched keys change; every
 * other profile, field, key order, indentation and escape stays byte-for-byte.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync, statSync, chmodSync, lstatSync, symlinkSync } from 'node:fs';
import fc from 'fast-check';
import { parseProfiles } from '../src/core/profiles.js';
import { applyOAuthUpdate, saveOAuthSettings } from '../src/tui/profiles-writer.js';
import { tempDir } from './helpers/cli.js';

const dir = tempDir('reqflow-profiles-writer-');
afterAll(() => dir.cleanup());

const FOUR_SPACES = `[
    {
        "name": "default",
        "variables": { "baseUrl": "https://api.example.com", "path": "a\\/b" },
        "headers": {"X-Trace": "1"}
    },
    {
        "name": "staging",
        "oauth": {
            "authUrl": "https://old.example.com/authorize",
            "tokenUrl": "https://old.example.com/token",
            "clientId": "old-client",
            "clientSecret": "{{clientSecret}}",
            "grant": "authorization_code",
            "x-custom": [1, 2, 3]
        },
        "tls": { "caFile": "./ca.pem" }
    },
    { "name": "prod", "variables": { "token": "$(pass show prod)" } }
]
`;

/** The text outside `[start, end)` of the first difference: what must not have changed. */
function unchangedOutside(before: string, after: string): { prefix: string; suffix: string } {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { prefix: before.slice(0, start), suffix: before.slice(before.length - end) };
}

describe('applyOAuthUpdate', () => {
  it('replaces only the values that changed, keeping indentation, order, escapes and other keys', () => {
    const after = applyOAuthUpdate(FOUR_SPACES, 'p.json', 'staging', { authUrl: 'https://new.example.com/authorize', tokenUrl: 'https://old.example.com/token', clientId: 'old-client', clientSecret: '{{clientSecret}}' });
    expect(after).toBe(FOUR_SPACES.replace('https://old.example.com/authorize', 'https://new.example.com/authorize'));
  });

  it('adds new keys after the last one with the file\'s indentation, and removes emptied ones', () => {
    const after = applyOAuthUpdate(FOUR_SPACES, 'p.json', 'staging', { scope: 'openid api:read', redirectUrl: 'http://127.0.0.1:9999/callback', clientSecret: '' });
    expect(after).toContain('            "x-custom": [1, 2, 3],\n            "scope": "openid api:read",\n            "redirectUrl": "http://127.0.0.1:9999/callback"\n        },');
    expect(after).not.toContain('clientSecret');
    const { prefix, suffix } = unchangedOutside(FOUR_SPACES, after);
    expect(prefix).toContain('"variables": { "baseUrl": "https://api.example.com", "path": "a\\/b" }');
    expect(suffix).toContain('"tls": { "caFile": "./ca.pem" }');
    const staging = parseProfiles(after, 'p.json').find((p) => p.name === 'staging');
    expect(staging?.oauth).toEqual({ authUrl: 'https://old.example.com/authorize', tokenUrl: 'https://old.example.com/token', clientId: 'old-client', grant: 'authorization_code', 'x-custom': [1, 2, 3], scope: 'openid api:read', redirectUrl: 'http://127.0.0.1:9999/callback' });
  });

  it('adds an oauth object to a profile that has none, indented like its siblings', () => {
    const after = applyOAuthUpdate(FOUR_SPACES, 'p.json', 'default', { clientId: 'new-client', tokenUrl: 'https://auth.example.com/token', scope: '' });
    expect(after).toContain('"headers": {"X-Trace": "1"},\n        "oauth": {\n            "clientId": "new-client",\n            "tokenUrl": "https://auth.example.com/token"\n        }\n    },');
    expect(after.replace(/,\n {8}"oauth": \{[^}]*\}/, '')).toBe(FOUR_SPACES);
  });

  it('adds a one-line member to a profile written on one line', () => {
    const after = applyOAuthUpdate(FOUR_SPACES, 'p.json', 'prod', { clientId: 'p' });
    expect(after).toContain('{ "name": "prod", "variables": { "token": "$(pass show prod)" }, "oauth": {"clientId":"p"} }');
  });

  it('adds a missing profile to the list, and works inside {"profiles": [...]} with tabs', () => {
    const wrapped = '{\n\t"profiles": [\n\t\t{\n\t\t\t"name": "a"\n\t\t}\n\t],\n\t"comment": "kept"\n}\n';
    const after = applyOAuthUpdate(wrapped, 'p.json', 'b', { clientId: 'cid', authUrl: '' });
    expect(after).toBe('{\n\t"profiles": [\n\t\t{\n\t\t\t"name": "a"\n\t\t},\n\t\t{\n\t\t\t"name": "b",\n\t\t\t"oauth": {\n\t\t\t\t"clientId": "cid"\n\t\t\t}\n\t\t}\n\t],\n\t"comment": "kept"\n}\n');
  });

  it('handles a minified file', () => {
    const after = applyOAuthUpdate('[{"name":"a","oauth":{"clientId":"x"}},{"name":"b"}]', 'p.json', 'a', { clientId: 'y', scope: 's' });
    expect(after).toBe('[{"name":"a","oauth":{"clientId":"y", "scope": "s"}},{"name":"b"}]');
  });

  it('refuses a file that is not valid JSON rather than overwrite it', () => {
    expect(() => applyOAuthUpdate('[{"name": "a"', 'p.json', 'a', { clientId: 'x' })).toThrow(/not valid JSON/);
  });

  it('property: any other profiles survive untouched, as values and as text', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }));
    const profile = fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), variables: fc.dictionary(fc.string({ maxLength: 6 }), fc.string(), { maxKeys: 3 }), extra: value });
    fc.assert(
      fc.property(fc.uniqueArray(profile, { selector: (p) => p.name, minLength: 1, maxLength: 4 }), fc.nat(), fc.constantFrom('  ', '    ', '\t', undefined), fc.string(), (profiles, pick, indent, clientId) => {
        const target = profiles[pick % profiles.length];
        if (!target || clientId === '') return;
        const text = JSON.stringify(profiles, null, indent);
        const after = applyOAuthUpdate(text, 'p.json', target.name, { clientId, authUrl: 'https://a.example/x' });
        const parsed = JSON.parse(after) as Array<Record<string, unknown>>;
        expect(parsed.map((p) => ({ ...p, oauth: undefined }))).toEqual(profiles.map((p) => ({ ...p, oauth: undefined })));
        expect(parsed.find((p) => p.name === target.name)?.oauth).toEqual({ clientId, authUrl: 'https://a.example/x' });
        const { prefix, suffix } = unchangedOutside(text, after);
        // A pure insertion: every byte of the original is still there, in place.
        expect(prefix.length + suffix.length).toBe(text.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('saveOAuthSettings', () => {
  it('writes atomically, keeps the file mode, and re-reads the file it edits', async () => {
    const path = dir.write('keep/.profiles.json', FOUR_SPACES);
    chmodSync(path, 0o640);
    await saveOAuthSettings(path, 'staging', { clientId: 'edited' });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(FOUR_SPACES.replace('"clientId": "old-client"', '"clientId": "edited"'));
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it('creates the file with a default profile when there is none', async () => {
    const path = `${dir.dir}/new/.profiles.json`;
    dir.write('new/placeholder.http', 'GET https://example.com\n');
    await saveOAuthSettings(path, 'default', { clientId: 'c', authUrl: 'https://a.example/authorize', tokenUrl: 'https://a.example/token', clientSecret: '' });
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text)).toEqual([{ name: 'default', oauth: { clientId: 'c', authUrl: 'https://a.example/authorize', tokenUrl: 'https://a.example/token' } }]);
    expect(text).toBe('[\n  {\n    "name": "default",\n    "oauth": {\n      "clientId": "c",\n      "authUrl": "https://a.example/authorize",\n      "tokenUrl": "https://a.example/token"\n    }\n  }\n]\n');
  });

  it('edits the file a symbolic link points to, and the link stays a link', async () => {
    const kept = dir.write('dotfiles/profiles.json', FOUR_SPACES);
    const link = `${dir.dir}/linked/.profiles.json`;
    dir.write('linked/placeholder.http', 'GET https://example.com\n');
    symlinkSync(kept, link);
    await saveOAuthSettings(link, 'staging', { clientId: 'through-link' });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(kept, 'utf8')).toBe(FOUR_SPACES.replace('"clientId": "old-client"', '"clientId": "through-link"'));
  });

  it('refuses an edit that would leave an invalid profiles file', async () => {
    const path = dir.write('bad/.profiles.json', '[{"name": "a", "oauth": {"clientId": "x"}}]');
    await expect(saveOAuthSettings(path, 'a', { grant: 'password' })).rejects.toThrow(/grant/);
    expect(readFileSync(path, 'utf8')).toBe('[{"name": "a", "oauth": {"clientId": "x"}}]');
  });
});

describe('an edit saved while another program writes the file', () => {
  it('is redone on what the other program wrote, never written over it; a file that never stops changing is left alone', async () => {
    const { saveProfileEdit } = await import('../src/tui/profiles-writer.js');
    const { writeFileSync } = await import('node:fs');
    const path = dir.write('race/.profiles.json', JSON.stringify([{ name: 'dev', variables: { a: '1' } }, { name: 'prod', variables: { ext: '0' } }], null, 2));
    let calls = 0;
    // The "other program" writes prod's value between the UI's read and its write, on the first try only.
    const setDevA = (text: string): string => {
      calls += 1;
      if (calls === 1) writeFileSync(path, text.replace('"ext": "0"', '"ext": "1"'));
      return text.replace('"a": "1"', '"a": "2"');
    };
    await saveProfileEdit(path, 'dev', 'variables', setDevA);
    expect(calls).toBe(2);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as Array<{ name: string; variables: Record<string, string> }>;
    expect(saved.map((p) => p.variables)).toEqual([{ a: '2' }, { ext: '1' }]);

    let n = 0;
    const restless = (text: string): string => {
      writeFileSync(path, text.replace(/"ext": "\d+"/, `"ext": "${(n += 1) + 10}"`));
      return text.replace(/"a": "\d+"/, '"a": "3"');
    };
    await expect(saveProfileEdit(path, 'dev', 'variables', restless)).rejects.toThrow(/kept changing while the edit was saved: not written/);
    expect(JSON.parse(readFileSync(path, 'utf8'))[0].variables).toEqual({ a: '2' }); // the UI's edit never went over the other program's
  });
});
