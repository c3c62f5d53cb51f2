/**
 * Properties of variable substitution (TemplateResolver):
 * - every `{{name}}` that can be resolved is resolved: the result equals a simple model of the
 *   lookup, nested references and helpers included, and holds no `{{` of its own;
 * - text from a response (session values) is never evaluated: `{{...}}` and `$(...)` in it stay
 *   literal, unknown names in it are not errors, and no shell runs, even when a shell value
 *   of the profile passes it to a command.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from '../src/core/model.js';
import { noTerminalPrompter } from '../src/core/prompt.js';
import { MemorySession } from '../src/core/session.js';
import { TemplateResolver } from '../src/core/variables.js';

const scratch = mkdtempSync(join(tmpdir(), 'reqflow-prop-vars-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Segment = { kind: 'text'; text: string } | { kind: 'ref'; index: number; helper?: 'urlencode' | 'base64'; spaced: boolean };

const literal = fc.string({ unit: fc.constantFrom(...'ab z09-_/:?&=%.,;$()[]"\'\t\né😀'.split('')), maxLength: 8 });
const segment = (refs: number): fc.Arbitrary<Segment> =>
  refs === 0
    ? literal.map((text) => ({ kind: 'text' as const, text }))
    : fc.oneof(
        literal.map((text) => ({ kind: 'text' as const, text })),
        fc.record({ kind: fc.constant('ref' as const), index: fc.nat({ max: refs - 1 }), helper: fc.constantFrom(undefined, 'urlencode' as const, 'base64' as const), spaced: fc.boolean() }),
      );

function render(segments: Segment[]): string {
  return segments
    .map((s) => {
      if (s.kind === 'text') return s.text;
      const inner = s.helper ? `${s.helper} v${s.index}` : `v${s.index}`;
      return s.spaced ? `{{ ${inner} }}` : `{{${inner}}}`;
    })
    .join('');
}

// Lone surrogates (possible in a JSON response) are encoded as U+FFFD, as Buffer's UTF-8 does.
const HELPERS = { urlencode: (v: string) => encodeURIComponent(Buffer.from(v, 'utf8').toString('utf8')), base64: (v: string) => Buffer.from(v, 'utf8').toString('base64') };

function model(segments: Segment[], values: string[]): string {
  return segments.map((s) => (s.kind === 'text' ? s.text : s.helper ? HELPERS[s.helper](values[s.index] as string) : (values[s.index] as string))).join('');
}

const isShellLike = (text: string): boolean => text.trim().startsWith('$(') && text.trim().endsWith(')');

/** Variables v0..vN-1; vI may reference only vJ with J < I (no cycles); each lives in -e or the profile. */
const definitions = fc
  .integer({ min: 1, max: 6 })
  .chain((count) =>
    fc.tuple(...Array.from({ length: count }, (_, i) => fc.tuple(fc.array(segment(i), { maxLength: 5 }).filter((s) => !isShellLike(render(s))), fc.constantFrom('cli' as const, 'profile' as const)))),
  );

function profileWith(variables: Profile['variables']): Profile {
  return { name: 'dev', variables, headers: {}, baseDir: scratch };
}

describe('variable substitution', () => {
  test('every resolvable {{...}} is resolved, as the lookup model says', async () => {
    await fc.assert(
      fc.asyncProperty(definitions, fc.array(segment(6), { maxLength: 8 }), async (defs, template) => {
        const cli: Record<string, string> = {};
        const variables: Profile['variables'] = {};
        const values: string[] = [];
        defs.forEach(([segments, where], i) => {
          (where === 'cli' ? cli : variables)[`v${i}`] = render(segments);
          values.push(model(segments, values));
        });
        const usable = template.filter((s) => s.kind === 'text' || s.index < defs.length);
        const resolver = new TemplateResolver({ cliVariables: cli, session: new MemorySession('dev'), profile: profileWith(variables), prompter: noTerminalPrompter, promptCache: new Map(), env: {} });
        const result = await resolver.expand(render(usable));
        expect(result).toBe(model(usable, values));
        expect(result).not.toContain('{{');
      }),
      { numRuns: 400 },
    );
  });

  // Text a response could carry: templates, shell syntax, quotes of every kind.
  const hostile = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('{{v0}}', '{{ env.HOME }}', '{{nope}}', '{{base64 v0}}', '$(touch MARKER)', '`touch MARKER`', "'; touch MARKER; '", '"$(touch MARKER)"', '{{$uuid}}', '}}{{', '$(', '{{'),
    fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom('{{v0}}', '$(touch MARKER)', '{{nope}}'), fc.string({ maxLength: 10 })).map((parts) => parts.join('')),
  );

  test('session values (response data) stay literal, whatever they contain', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (raw, other) => {
        const marker = join(scratch, 'literal-marker');
        const value = raw.replaceAll('MARKER', marker);
        const session = new MemorySession('dev');
        session.set('token', value);
        session.set('v0', other.replaceAll('MARKER', marker));
        const profile = profileWith({ header: 'Bearer {{token}}', nested: '[{{header}}]' });
        const resolver = new TemplateResolver({ cliVariables: { viaCli: 'cli:{{token}}' }, session, profile, prompter: noTerminalPrompter, promptCache: new Map(), env: { HOME: '/home/x' } });
        expect(await resolver.expand('{{token}}')).toBe(value);
        expect(await resolver.expand('{{nested}}|{{viaCli}}')).toBe(`[Bearer ${value}]|cli:${value}`);
        expect(await resolver.expand('{{urlencode token}}')).toBe(encodeURIComponent(value));
        expect(existsSync(marker)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  test('a session value passed to a profile shell command arrives as one literal word; no shell runs it', async () => {
    // printf prints its argument unchanged; the command's output is trimmed of trailing newlines, and must not be empty.
    const shellSafe = hostile.filter((v) => !v.includes('\u0000') && v.replace(/[\r\n]+$/, '') === v && v !== '');
    await fc.assert(
      fc.asyncProperty(shellSafe, async (raw) => {
        const marker = join(scratch, 'shell-marker');
        const value = raw.replaceAll('MARKER', marker);
        const session = new MemorySession('dev');
        session.set('token', value);
        const profile = profileWith({ echoed: "$(printf '%s' {{token}})" });
        const resolver = new TemplateResolver({ cliVariables: {}, session, profile, prompter: noTerminalPrompter, promptCache: new Map(), env: {} });
        expect(await resolver.get('echoed')).toBe(value);
        expect(existsSync(marker)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
