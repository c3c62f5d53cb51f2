import { describe, expect, test } from '@jest/globals';
import { MemorySession } from '../src/core/session.js';
import { TemplateResolver, type ResolverOptions } from '../src/core/variables.js';
import { noTerminalPrompter, type Prompter } from '../src/core/prompt.js';
import type { Profile } from '../src/core/model.js';
import { ReqflowError } from '../src/core/errors/index.js';
import { SecretRegistry } from '../src/core/mask.js';

function resolver(overrides: Partial<ResolverOptions> & { profileVars?: Profile['variables']; sessionVars?: Record<string, string> } = {}): TemplateResolver {
  const session = new MemorySession('default');
  for (const [k, v] of Object.entries(overrides.sessionVars ?? {})) session.set(k, v);
  const profile: Profile = { name: 'dev', variables: overrides.profileVars ?? {}, headers: {}, baseDir: '/' };
  return new TemplateResolver({ cliVariables: {}, session, profile, prompter: noTerminalPrompter, promptCache: new Map(), env: {}, requestName: 'req', ...overrides });
}

async function failure(run: () => Promise<unknown>): Promise<ReqflowError> {
  try {
    await run();
  } catch (error) {
    return error as ReqflowError;
  }
  throw new Error('expected a failure');
}

describe('variables', () => {
  test('lookup order: -e, then session, then profile', async () => {
    const r = resolver({ cliVariables: { a: 'cli' }, sessionVars: { a: 'session', b: 'session' }, profileVars: { a: 'profile', b: 'profile', c: 'profile' } });
    expect(await r.expand('{{a}} {{ b }} {{c}}')).toBe('cli session profile');
    expect([r.sourceOf('a'), r.sourceOf('b'), r.sourceOf('c'), r.sourceOf('d')]).toEqual(['cli', 'session', 'profile', undefined]);
  });

  test('values reference other variables; env and helpers', async () => {
    const r = resolver({ profileVars: { host: 'api.test', baseUrl: 'https://{{host}}/v1', q: 'a b&c' }, env: { HOME_DIR: '/home/ada' } });
    expect(await r.expand('{{baseUrl}}/x?q={{urlencode q}}&h={{env.HOME_DIR}}&b={{base64 "ab"}}')).toBe('https://api.test/v1/x?q=a%20b%26c&h=/home/ada&b=YWI=');
  });

  test('an unknown variable is exit 3 naming it and where it could be set', async () => {
    const error = await failure(() => resolver({ profilesPath: '/work/api/.profiles.json' }).expand('Bearer {{token}}'));
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('unknown variable "token" in request "req"');
    expect(error.hint).toMatch(/-e token=value.*profile "dev" in \/work\/api\/\.profiles\.json.*session/);
    // No profiles file: how to start one, not a file that is not there.
    const none = await failure(() => resolver().expand('Bearer {{token}}'));
    expect(none.hint).toBe('set it with -e token=value, or in a .profiles.json beside the request file: [{"name": "dev", "variables": {"token": "…"}}]');
  });

  test('an unset environment variable is exit 3', async () => {
    const error = await failure(() => resolver().expand('{{env.NOPE_NOT_SET}}'));
    expect(error.exitCode).toBe(3);
    expect(error.message).toMatch(/environment variable NOPE_NOT_SET is not set/);
  });

  test('a cycle is exit 3 showing the chain', async () => {
    const error = await failure(() => resolver({ profileVars: { a: '{{b}}', b: 'x{{a}}' } }).expand('{{a}}'));
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('variable cycle: a → b → a in request "req"');
  });

  test('shell values run once per request, trimmed, in dependency order', async () => {
    const r = resolver({ profileVars: { ts: '$(date +%s%N)', sig: "$(printf '%s' {{ts}} | sha256sum | cut -c1-8)", echo: '$(printf "x\\n\\n")' } });
    const first = await r.get('ts');
    expect(await r.expand('{{ts}}')).toBe(first);
    const expected = (await import('node:crypto')).createHash('sha256').update(first).digest('hex').slice(0, 8);
    expect(await r.get('sig')).toBe(expected);
    expect(await r.get('echo')).toBe('x');
  });

  test('values substituted into a shell command are quoted: they never run', async () => {
    const r = resolver({ cliVariables: { evil: "'; echo pwned; '" }, profileVars: { out: '$(printf %s {{evil}})' } });
    expect(await r.get('out')).toBe("'; echo pwned; '");
  });

  test('failing, silent and hanging shell values are exit 3', async () => {
    const failing = await failure(() => resolver({ profileVars: { x: '$(echo oops >&2; exit 7)' } }).get('x'));
    expect([failing.exitCode, failing.message]).toEqual([3, 'shell value of "x" failed with exit code 7: oops']);
    const silent = await failure(() => resolver({ profileVars: { x: '$(true)' } }).get('x'));
    expect(silent.message).toBe('shell value of "x" printed nothing');
    const started = Date.now();
    const hanging = await failure(() => resolver({ profileVars: { x: '$(sleep 30)' }, shellTimeoutMs: 300 }).get('x'));
    expect([hanging.exitCode, hanging.message]).toEqual([3, 'shell value of "x" timed out after 0.3 s']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('session values are literal: never expanded, never run', async () => {
    const r = resolver({ sessionVars: { token: '$(touch /tmp/reqflow-pwned) {{secret}}' }, profileVars: { secret: 'nope' } });
    expect(await r.expand('{{token}}')).toBe('$(touch /tmp/reqflow-pwned) {{secret}}');
  });

  test('interactive variables prompt once per run; secret names hide input; no terminal is exit 3', async () => {
    const asked: Array<{ name: string; secret: boolean; defaultValue: string }> = [];
    const prompter: Prompter = async (req) => {
      asked.push(req);
      return req.name === 'user' ? '' : 'hunter2';
    };
    const cache = new Map<string, string>();
    const profileVars = { user: { value: 'ada', interactive: true }, password: { value: '', interactive: true } };
    const secrets = new SecretRegistry();
    const r1 = resolver({ profileVars, prompter, promptCache: cache, secrets });
    expect(await r1.expand('{{user}}:{{password}}')).toBe(':hunter2');
    const r2 = resolver({ profileVars, prompter, promptCache: cache });
    expect(await r2.expand('{{password}}')).toBe('hunter2');
    expect(asked).toEqual([{ name: 'user', defaultValue: 'ada', secret: false }, { name: 'password', defaultValue: '', secret: true }]);
    expect(secrets.scrub('pw=hunter2')).toBe('pw=•••');
    const error = await failure(() => resolver({ profileVars }).get('user'));
    expect(error.exitCode).toBe(3);
    expect(error.hint).toBe('pass it with -e user=value');
  });

  test("httpyac's {{$input label $value: default}} and {{$password label}}: asked once per run, the password masked; no terminal is exit 3 naming the label", async () => {
    const asked: Array<{ name: string; secret: boolean; defaultValue: string }> = [];
    const prompter: Prompter = async (req) => {
      asked.push(req);
      return req.secret ? 'hunter2' : '42';
    };
    const secrets = new SecretRegistry();
    const r = resolver({ prompter, promptCache: new Map(), secrets });
    expect(await r.expand('/products/{{$input product id $value: 1}}/{{$input product id $value: 1}}?p={{$password your password}}')).toBe('/products/42/42?p=hunter2');
    expect(asked).toEqual([{ name: 'product id', defaultValue: '1', secret: false }, { name: 'your password', defaultValue: '', secret: true }]);
    expect(secrets.scrub('pw=hunter2')).toBe('pw=•••');
    const error = await failure(() => resolver().expand('{{$input product id}}'));
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('{{$input product id}} asks for a value, but stdin is not a terminal in request "req"');
  });

  test('dynamic values', async () => {
    const r = resolver();
    expect(await r.expand('{{$uuid}}')).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(await r.expand('{{$timestamp}}'))).toBeGreaterThan(1_700_000_000);
  });
});

describe('secret forms', () => {
  test('a secret echoed by a JSON encoder that escapes + < > & \' and non-ASCII as \\u002B (.NET\'s default) is masked', () => {
    const secrets = new SecretRegistry();
    secrets.add('Ab9+/zQ<key>&é');
    expect(secrets.scrub('{"echo":"Ab9\\u002B/zQ\\u003Ckey\\u003E\\u0026\\u00E9"}')).toBe('{"echo":"•••"}');
    // The forms already read: plain JSON, and Python's (non-ASCII escaped, lower-case hex).
    expect(secrets.scrub('{"echo":"Ab9+/zQ<key>&\\u00e9"}')).toBe('{"echo":"•••"}');
  });
});
