/**
 * Script globals in-process: where they rank among the variable sources, which are registered
 * as secrets when a run reads them, and how the session's entry follows set/delete/clear.
 */
import { describe, expect, test } from '@jest/globals';
import { SecretRegistry } from '../src/core/mask.js';
import type { Profile } from '../src/core/model.js';
import { noTerminalPrompter } from '../src/core/prompt.js';
import { openScriptGlobals, type InvocationGlobals } from '../src/core/script-globals.js';
import { MemorySession } from '../src/core/session.js';
import { SCRIPT_GLOBALS, TemplateResolver } from '../src/core/variables.js';

function sessionWith(globals: Record<string, string>, profile = 'default'): MemorySession {
  const session = new MemorySession(profile);
  session.setData(SCRIPT_GLOBALS, globals);
  return session;
}

describe('where a kept global ranks', () => {
  test('below -e, the file, the environment and the profile; above a token extracted by itself', async () => {
    const session = sessionWith({ a: 'global', b: 'global', c: 'global', d: 'global', e: 'global', f: 'global' });
    session.set('f', 'extracted', 'extracted');
    const profile: Profile = { name: 'default', variables: { d: 'profile' }, headers: {}, baseDir: '/' };
    const resolver = new TemplateResolver({
      cliVariables: { a: 'cli' },
      fileVariables: { b: 'file' },
      environmentVariables: { c: 'environment' },
      globals: openScriptGlobals(session, '/p', new SecretRegistry()),
      session,
      profile,
      prompter: noTerminalPrompter,
      promptCache: new Map(),
      env: {},
    });
    expect(await resolver.expand('{{a}} {{b}} {{c}} {{d}} {{e}} {{f}}')).toBe('cli file environment profile global global');
    expect(resolver.sourceOf('e')).toBe('global');
  });
});

describe('secrets and the session entry', () => {
  test('a credential by name or by value is a secret of the run that reads it; a plain value is not', () => {
    const secrets = new SecretRegistry();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
    openScriptGlobals(sessionWith({ BOSS_AUTHORIZATION: 'opaque-1234', header: 'Bearer abcd1234', id: jwt, region: 'eu-west' }), '/p', secrets);
    expect(secrets.scrub('opaque-1234 abcd1234 eu-west')).toBe('••• ••• eu-west');
    expect(secrets.scrub(jwt)).toBe('•••');
  });

  test('set, delete and clear change the session entry; the files of one invocation share them per project and profile', () => {
    const invocation: InvocationGlobals = new Map();
    const first = sessionWith({});
    const globals = openScriptGlobals(first, '/p', new SecretRegistry(), invocation);
    globals.set('x', '1');
    globals.set('y', '2');
    globals.delete('x');
    expect(first.getData(SCRIPT_GLOBALS)).toEqual({ y: '2' });
    // The next file of the invocation, same project and profile: it sees y; another project does not.
    expect(openScriptGlobals(new MemorySession('default'), '/p', new SecretRegistry(), invocation).get('y')).toBe('2');
    expect(openScriptGlobals(new MemorySession('default'), '/q', new SecretRegistry(), invocation).get('y')).toBeUndefined();
    expect(openScriptGlobals(new MemorySession('other'), '/p', new SecretRegistry(), invocation).get('y')).toBeUndefined();
    globals.clear();
    expect(first.getData(SCRIPT_GLOBALS)).toBeUndefined();
  });
});
