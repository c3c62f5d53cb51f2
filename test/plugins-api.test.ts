/**
 * The plugin API as a plugin author meets it: `import type { ... } from 'reqflow'` in a
 * package that depends on reqflow, the helper exports, the shape check, and the registry rules
 * for third-party plugins (auth-name conflicts, a throwing `appliesTo`, claimed extensions).
 */
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { toRunOptions } from '../src/cli/run-options.js';
import { AgentPool } from '../src/core/http/agents.js';
import { SecretRegistry } from '../src/core/mask.js';
import type { Plugin } from '../src/pipeline/plugin.js';
import type { Profile, RequestSpec } from '../src/core/model.js';
import type { RequestContext } from '../src/pipeline/context.js';
import { noTerminalPrompter } from '../src/core/prompt.js';
import { PluginRegistry, entryFromPlugin } from '../src/core/registry.js';
import { createContext } from '../src/pipeline/create-context.js';
import { createFeed } from '../src/report/feed.js';
import { AbortHooks } from '../src/core/abort-hooks.js';
import { loadSession } from '../src/core/session.js';
import { pluginShapeProblem } from '../src/pipeline/third-party.js';
import * as reqflow from '../src/index.js';
import { ROOT, tempDir } from './helpers/cli.js';
import { TSC } from './helpers/plugins.js';

const tmp = tempDir('reqflow-plugin-api-');
afterAll(() => tmp.cleanup());

describe("a package that depends on reqflow", () => {
  // node_modules/reqflow → this checkout, as `npm install reqflow` (or a file: dependency) makes
  // it. Like any Node package's types, reqflow's need @types/node (Buffer, streams).
  // skipLibCheck is off, so the shipped .d.ts files are checked too.
  const consumer = join(tmp.dir, 'consumer');
  mkdirSync(join(consumer, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(consumer, 'node_modules', 'reqflow'), 'dir');
  tmp.write('consumer/package.json', JSON.stringify({ name: 'consumer', type: 'module', devDependencies: { reqflow: '*' } }));
  tmp.write(
    'consumer/tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] }, include: ['*.ts'] }),
  );

  test("`import type { Plugin, RequestContext, Stage } from 'reqflow'` resolves to the shipped declarations, and they are real types", () => {
    tmp.write(
      'consumer/good.ts',
      `
      import type { Plugin, PluginsHook, RequestContext, Stage } from 'reqflow';
      const stage: Stage = 'auth';
      async function sign(ctx: RequestContext): Promise<RequestContext> {
        ctx.spec.headers['X-Key'] = await ctx.variables.get('apiKey');
        return ctx;
      }
      const plugin: Plugin = { name: 'auth-key', authName: 'key', after: ['graphql'], stages: { [stage]: sign } };
      const hook: PluginsHook = ({ reqflow }) => {
        reqflow.setHeader({}, 'X-A', 'b');
        if (reqflow.ExitCode.usage !== 2) reqflow.fail('unreachable', { exitCode: reqflow.ExitCode.internal });
        return plugin;
      };
      export default hook;
    `,
    );
    tmp.write(
      'consumer/bad.ts',
      `
      import type { Plugin, Stage } from 'reqflow';
      const stage: Stage = 'authenticate';
      const plugin: Plugin = { name: 'x', stages: { auth: (ctx) => ctx.spec.nope } };
      export { stage, plugin };
    `,
    );
    // One compiler run for both files (checking the declarations and @types/node takes seconds).
    const result = spawnSync(process.execPath, [TSC, '-p', join(consumer, 'tsconfig.json')], { encoding: 'utf8' });
    const errors = (result.stdout + result.stderr).trim().split('\n');
    expect(errors).toEqual([
      expect.stringMatching(/bad\.ts\(3,13\): error TS2322: Type '"authenticate"' is not assignable to type/),
      expect.stringMatching(/bad\.ts\(4,\d+\): error TS2339: Property 'nope' does not exist on type 'RequestSpec'/),
    ]);
  }, 30_000);

  test('its runtime exports load through the package `exports` map', () => {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', "const r = await import('reqflow'); console.log(['fail','maskSecret','readVariable','readSession','writeSession','readAuthSettings','ReqflowError','ExitCode'].map((k) => k + ':' + typeof r[k]).join(' '))"], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('fail:function maskSecret:function readVariable:function readSession:function writeSession:function readAuthSettings:function ReqflowError:function ExitCode:object');
  });
});

describe('helpers for plugins', () => {
  const profile: Profile = {
    name: 'helpers',
    variables: { region: 'eu-west-3', apiSecret: 'profile-secret-value', signingKey: '{{region}}-key' },
    headers: {},
    auth: { type: 'hmac', secret: '{{apiSecret}}', header: 'X-Sig', retries: 3 },
    baseDir: tmp.dir,
  };
  const spec: RequestSpec = { name: 'r1', method: 'GET', url: 'http://127.0.0.1:1/', headers: {}, annotations: { auth: 'hmac', 'hmac.header': 'X-Custom-Sig', 'other.header': 'no' }, source: { file: 'r.http', line: 1 } };
  const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
  const errors: string[] = [];
  let agents: AgentPool | undefined;

  async function context(overrides: Partial<Profile> = {}, annotations: Record<string, string> = spec.annotations): Promise<RequestContext> {
    agents ??= new AgentPool();
    const session = await loadSession('helpers', { env, project: tmp.dir });
    return createContext({ ...spec, annotations }, join(tmp.dir, 'r.http'), {
      registry: new PluginRegistry([]),
      options: toRunOptions({ variable: ['cliOnly=from-cli'] }, { stdoutIsTTY: false, stdinIsTTY: false, env: {} }),
      profile: { ...profile, ...overrides },
      session,
      output: { out: () => undefined, err: (line) => errors.push(line) },
      report: createFeed({}, undefined),
      prompter: noTerminalPrompter,
      promptCache: new Map(),
      secrets: new SecretRegistry(),
      agents,
      signal: new AbortController().signal,
      abort: new AbortHooks(new AbortController().signal),
      runState: {},
      env,
    });
  }
  afterAll(() => agents?.destroy());

  test('readVariable / readOptionalVariable: -e, session, profile; unknown is exit 3', async () => {
    const ctx = await context();
    expect(await reqflow.readVariable(ctx, 'signingKey')).toBe('eu-west-3-key');
    expect(await reqflow.readVariable(ctx, 'cliOnly')).toBe('from-cli');
    expect(await reqflow.readOptionalVariable(ctx, 'awsSessionToken')).toBeUndefined();
    await expect(reqflow.readVariable(ctx, 'awsSessionToken')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('unknown variable "awsSessionToken"') });
  });

  test('writeSession / readSession: later requests and runs see the value', async () => {
    const first = await context();
    reqflow.writeSession(first, 'nonce', 'n-123');
    await first.session.save();
    const later = await context();
    expect(reqflow.readSession(later, 'nonce')).toBe('n-123');
    expect(await reqflow.readVariable(later, 'nonce')).toBe('n-123');
    const file = readFileSync(sessionFileFor(env.REQFLOW_STATE_DIR as string, tmp.dir, 'helpers'), 'utf8');
    expect(JSON.parse(file)).toMatchObject({ variables: { nonce: 'n-123' } });
  });

  test('readAuthSettings: defaults < profile auth < # @<method>.<key>, templates resolved once', async () => {
    const ctx = await context();
    expect(await reqflow.readAuthSettings(ctx, 'hmac', { algorithm: 'sha256', header: 'X-Signature', secret: '{{signingKey}}' })).toEqual({
      type: 'hmac',
      algorithm: 'sha256',
      header: 'X-Custom-Sig',
      secret: 'profile-secret-value',
      retries: 3,
    });
    // The profile's auth belongs to another method: only defaults and annotations apply...
    const other = await context({ auth: { type: 'bearer', token: 'x' } });
    expect(await reqflow.readAuthSettings(other, 'hmac', { secret: '{{signingKey}}' })).toEqual({ secret: 'eu-west-3-key', header: 'X-Custom-Sig' });
    expect(reqflow.requestedAuth(other)).toBe('hmac');
    // ...unless it has an entry named after the method, as for the built-in methods.
    const nested = await context({ auth: { type: 'bearer', token: 'x', hmac: { algorithm: 'sha512', secret: '{{region}}' } } });
    expect(await reqflow.readAuthSettings(nested, 'hmac', { algorithm: 'sha256' })).toEqual({ algorithm: 'sha512', secret: 'eu-west-3', header: 'X-Custom-Sig' });
  });

  test('readAuthSettings: an annotation `# @hmac.__proto__` is a setting of that name, not dropped (nor the object\'s prototype)', async () => {
    // As the parsers hand it over: an own key (assigned on a plain object, it set nothing).
    const annotations = JSON.parse('{"auth": "hmac", "hmac.__proto__": "{{region}}", "hmac.constructor": "c"}') as Record<string, string>;
    const settings = await reqflow.readAuthSettings(await context({}, annotations), 'hmac');
    expect(Object.entries(settings)).toEqual([['type', 'hmac'], ['secret', 'profile-secret-value'], ['header', 'X-Sig'], ['retries', 3], ['__proto__', 'eu-west-3'], ['constructor', 'c']]);
    expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
  });

  test('fail: a clear error with an exit code (2 unless told), no stack in the message', () => {
    expect(() => reqflow.fail('bad setting', { hint: 'fix it' })).toThrow(expect.objectContaining({ message: 'bad setting', hint: 'fix it', exitCode: 2 }) as unknown as Error);
    try {
      reqflow.fail('token endpoint said no', { exitCode: reqflow.ExitCode.auth });
    } catch (error) {
      expect(reqflow.isReqflowError(error)).toBe(true);
      expect((error as reqflow.ReqflowError).exitCode).toBe(6);
    }
  });

  test('maskSecret: the value is masked in every later warning, and the mask is returned', async () => {
    const ctx = await context();
    expect(reqflow.maskSecret(ctx, 'derived-signing-key-42')).toBe('•••');
    ctx.warn('signing with derived-signing-key-42 for region eu-west-3');
    expect(errors.at(-1)).toBe('reqflow: warning: signing with ••• for region eu-west-3');
  });
});

describe('shape check of hook exports', () => {
  test.each([
    [null, 'it returned null, not a plugin object'],
    ['auth-x', 'it returned string, not a plugin object'],
    [{ stages: {} }, 'a plugin has no "name" string'],
    [{ name: 'x' }, 'plugin "x" has no "stages" object'],
    [{ name: 'x', stages: { authenticate: () => undefined } }, 'plugin "x" has an unknown stage "authenticate" (stages: parse, substitute, auth, transform, send, render)'],
    [{ name: 'x', stages: { auth: 'sign' } }, 'plugin "x" stage "auth" is not a function'],
    [{ name: 'x', stages: {}, authName: 7 }, 'plugin "x" has an "authName" that is not a non-empty string'],
    [{ name: 'x', stages: {}, appliesTo: true }, 'plugin "x" has an "appliesTo" that is not a function'],
    [{ name: 'x', stages: {}, before: 'graphql' }, 'plugin "x" has a "before" that is not a list of names'],
    [{ name: 'x', stages: { auth: () => undefined }, after: ['graphql'], extensions: ['toml'] }, undefined],
  ])('%j → %s', (value, problem) => {
    expect(pluginShapeProblem(value)).toBe(problem);
  });
});

describe('registry rules for third-party plugins', () => {
  const ctxFor = (annotations: Record<string, string>): RequestContext => ({ spec: { name: 'req', annotations }, profile: {} }) as unknown as RequestContext;
  const thirdParty = (plugin: Plugin, source: string) => entryFromPlugin(plugin, false, source);
  const builtinBearer = entryFromPlugin({ name: 'auth-bearer', authName: 'bearer', stages: { auth: (c) => c } }, true);

  test('several plugins claiming one auth method: exit 2 naming them all, only for requests that ask for it', () => {
    const registry = new PluginRegistry(
      [builtinBearer],
      [
        thirdParty({ name: 'team-z', authName: 'team', stages: { auth: (c) => c } }, 'pkg-z'),
        thirdParty({ name: 'team-a', authName: 'team', stages: { auth: (c) => c } }, 'pkg-a'),
        thirdParty({ name: 'team-m', authName: 'team', stages: { auth: (c) => c } }, 'pkg-m'),
        thirdParty({ name: 'my-bearer', authName: 'bearer', stages: { auth: (c) => c } }, 'pkg-bearer'),
      ],
    );
    expect(() => registry.checkAuthAvailable(ctxFor({}))).not.toThrow();
    expect(() => registry.checkAuthAvailable(ctxFor({ auth: 'team' }))).toThrow(
      expect.objectContaining({ exitCode: 2, message: 'plugin "team-a" (package pkg-a), plugin "team-m" (package pkg-m) and plugin "team-z" (package pkg-z) all provide auth method "team" (request "req")' }) as unknown as Error,
    );
    expect(() => registry.checkAuthAvailable(ctxFor({ auth: 'bearer' }))).toThrow(
      expect.objectContaining({ exitCode: 2, message: 'built-in plugin "auth-bearer" and plugin "my-bearer" (package pkg-bearer) both provide auth method "bearer" (request "req")', hint: 'uninstall all but one of them, e.g. reqflow plugins uninstall pkg-bearer' }) as unknown as Error,
    );
  });

  test('a third-party appliesTo that throws is exit 70 naming the plugin and stage', () => {
    const entry = thirdParty({ name: 'picky', appliesTo: () => { throw new TypeError("Cannot read properties of undefined (reading 'x')"); }, stages: { transform: (c) => c } }, 'pkg-picky');
    const registry = new PluginRegistry([], [entry]);
    expect(() => registry.applies(entry, ctxFor({}), 'transform')).toThrow(
      expect.objectContaining({ exitCode: 70, message: `plugin "picky" failed in the transform stage: Cannot read properties of undefined (reading 'x')` }) as unknown as Error,
    );
  });

  test('extensions claimed by a parse plugin are recognised', () => {
    const registry = new PluginRegistry([], [thirdParty({ name: 'toml', extensions: ['toml'], stages: { parse: (c) => c } }, 'pkg-toml')]);
    expect(registry.claimsExtension('toml')).toBe(true);
    expect(registry.claimsExtension('ini')).toBe(false);
  });
});
