/**
 * Variables named like an object's own machinery — `__proto__`, `constructor`, `prototype`,
 * `hasOwnProperty` — from every source a user writes them in, end to end with the built CLI
 * against a recording server: each is an ordinary variable, and `{{name}}` sends its value
 * (docs/variables.md, "Any name"). A `__proto__` key holding an object never becomes anything's
 * prototype: its keys are dotted names, never variables of their own.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty'] as const;

let recorder: Recorder;
const tmp = tempDir('reqflow-proto-names-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: 'captured-7' }));
  });
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

/** A project of its own (`package.json`) holding `files`, and a request that sends every name's `{{name}}` (`{{…}}` of `template`). */
function project(label: string, files: Record<string, string>, request = `GET ${recorder.url}/v?${query((name) => `{{${name}}}`)}\n`): string {
  tmp.write(`${label}/package.json`, '{}');
  for (const [file, text] of Object.entries(files)) tmp.write(`${label}/${file}`, text);
  return tmp.write(`${label}/req.http`, request);
}

/** `n0=…&n1=…`, a value per name, in NAMES' order: every name goes through the same source in one run. */
const query = (value: (name: string) => string): string => NAMES.map((name, i) => `n${i}=${value(name)}`).join('&');
/** What the recorder receives for `/path` when each name's value is `value(name)`. */
const got = (path: string, value: (name: string) => string): string => `${path}?${query(value)}`;
/** One line per name, `NAME=VALUE`, as `.env` files write them. */
const dotenv = (value: (name: string) => string): string => NAMES.map((name) => `${name}=${value(name)}\n`).join('');
/** An object with every name as an own key (JSON.stringify writes `__proto__` as a key only from an own property). */
const record = (value: (name: string) => string): Record<string, string> => Object.fromEntries(NAMES.map((name) => [name, value(name)]));

async function sent(file: string, args: string[] = []): Promise<string[]> {
  const before = recorder.received.length;
  const result = await runCli(['run', file, ...args], { env, cwd: dirname(file) });
  expect({ code: result.code, errors: result.stderr.split('\n').filter((line) => line.startsWith('reqflow:')) }).toEqual({ code: 0, errors: [] });
  return recorder.received.slice(before).map((r) => decodeURIComponent(r.url));
}

describe(`variables named ${NAMES.join(', ')}`, () => {
  const json = (value: unknown): string => JSON.stringify(value);
  const from = (source: string) => (name: string) => `${source}-${name}`;

  test('in a .env file (kulala, rest.nvim: read for a name nothing else defines)', async () => {
    expect(await sent(project('dotenv', { '.env': dotenv(from('dotenv')) }))).toEqual([got('/v', from('dotenv'))]);
  });

  test('in {{$dotenv NAME}}', async () => {
    const file = project('sysdotenv', { '.env': dotenv(from('sys-dotenv')) }, `GET ${recorder.url}/v?${query((name) => `{{$dotenv ${name}}}`)}\n`);
    expect(await sent(file)).toEqual([got('/v', from('sys-dotenv'))]);
  });

  test('in an httpyac NAME.env over .env', async () => {
    expect(await sent(project('nameenv', { '.env': dotenv(() => 'base'), 'dev.env': dotenv(from('dev-env')) }), ['--env', 'dev'])).toEqual([got('/v', from('dev-env'))]);
  });

  test('in http-client.env.json, plain JSON and with comments ($shared)', async () => {
    expect(await sent(project('jb', { 'http-client.env.json': json({ dev: record(from('jetbrains')) }) }), ['--env', 'dev'])).toEqual([got('/v', from('jetbrains'))]);
    const jsonc = `// shared values\n{"$shared": {${NAMES.map((name) => `${json(name)}: "jsonc-${name}",`).join(' ')}},}\n`;
    expect(await sent(project('jbc', { 'http-client.env.json': jsonc }))).toEqual([got('/v', from('jsonc'))]);
  });

  test('in http-client.private.env.json, masked', async () => {
    const file = project('jbp', { 'http-client.env.json': json({ dev: {} }), 'http-client.private.env.json': json({ dev: record(from('private-93f')) }) });
    expect(await sent(file, ['--env', 'dev'])).toEqual([got('/v', from('private-93f'))]);
    const shown = await runCli(['run', file, '--env', 'dev', '--dry-run'], { env, cwd: dirname(file) });
    expect(shown.stdout).not.toContain('private-93f');
  });

  test('in .httpyac.json', async () => {
    expect(await sent(project('yac', { '.httpyac.json': json({ environments: { dev: record(from('httpyac')) } }) }), ['--env', 'dev'])).toEqual([got('/v', from('httpyac'))]);
  });

  test("in VS Code's rest-client.environmentVariables (JSONC), and through {{$shared NAME}}", async () => {
    const shared = NAMES.map((name) => `${json(name)}: "vscode-${name}"`).join(', ');
    const dev = NAMES.map((name, i) => `"other${i}": "{{$shared ${name}}}"`).join(', ');
    const settings = `{\n  // REST Client\n  "rest-client.environmentVariables": {"$shared": {${shared}}, "dev": {${dev}}},\n}\n`;
    const file = project('vs', { '.vscode/settings.json': settings }, `GET ${recorder.url}/v?${query((name) => `{{${name}}}`)}&${NAMES.map((_, i) => `o${i}={{other${i}}}`).join('&')}\n`);
    expect(await sent(file, ['--env', 'dev'])).toEqual([`${got('/v', from('vscode'))}&${NAMES.map((name, i) => `o${i}=vscode-${name}`).join('&')}`]);
  });

  test('in a .profiles.json profile, plain JSON and with comments', async () => {
    expect(await sent(project('prof', { '.profiles.json': json([{ name: 'p', variables: record(from('profile')) }]) }), ['-p', 'p'])).toEqual([got('/v', from('profile'))]);
    const jsonc = `[/* one */ {"name": "p", "variables": {${NAMES.map((name) => `${json(name)}: "profile-jsonc-${name}"`).join(', ')}}}]`;
    expect(await sent(project('profc', { '.profiles.json': jsonc }), ['-p', 'p'])).toEqual([got('/v', from('profile-jsonc'))]);
  });

  test('as an @name = value file variable', async () => {
    const file = project('filevar', {}, `${NAMES.map((name) => `@${name} = file-${name}\n`).join('')}GET ${recorder.url}/v?${query((name) => `{{${name}}}`)}\n`);
    expect(await sent(file)).toEqual([got('/v', from('file'))]);
  });

  test('with -e NAME=VALUE', async () => {
    expect(await sent(project('cli', {}), NAMES.flatMap((name) => ['-e', `${name}=cli-${name}`]))).toEqual([got('/v', from('cli'))]);
  });

  test('captured from a response, and kept in the session with --save', async () => {
    const captures = NAMES.map((name) => `# @capture ${name} = $.id\n`).join('');
    const file = project('capture', {}, `${captures}GET ${recorder.url}/first\n\n###\nGET ${recorder.url}/v?${query((name) => `{{${name}}}`)}\n`);
    expect(await sent(file, ['--save'])).toEqual(['/first', got('/v', () => 'captured-7')]);
    // A later run reads them from the session.
    const later = tmp.write('capture/later.http', `GET ${recorder.url}/v?${query((name) => `{{${name}}}`)}\n`);
    expect(await sent(later)).toEqual([got('/v', () => 'captured-7')]);
  });

  test("set by a script: JetBrains' client.global.set and request.variables.set", async () => {
    const globals = NAMES.map((name) => `  client.global.set(${json(name)}, "global-${name}");\n`).join('');
    const locals = NAMES.map((name) => `  request.variables.set(${json(name)}, "request-variable-${name}");\n`).join('');
    const names = query((name) => `{{${name}}}`);
    const file = project('script', {}, `GET ${recorder.url}/first\n\n> {%\n${globals}%}\n\n###\nGET ${recorder.url}/v?${names}\n\n###\n< {%\n${locals}%}\nGET ${recorder.url}/w?${names}\n`);
    expect(await sent(file)).toEqual(['/first', got('/v', from('global')), got('/w', from('request-variable'))]);
    // The globals outlive the run (the session keeps them).
    const later = tmp.write('script/later.http', `GET ${recorder.url}/v?${names}\n`);
    expect(await sent(later)).toEqual([got('/v', from('global'))]);
  });
});

describe('a __proto__ key holding an object', () => {
  test('is read by dotted names, never as a prototype: its keys define no variable of their own', async () => {
    // Written by hand: JSON.stringify of an object literal's `__proto__` writes nothing.
    const file = project('pollute', { 'http-client.env.json': '// a hostile file\n{"dev": {"__proto__": {"polluted": "yes"}, "host": "h"}}\n' }, `GET ${recorder.url}/v?got={{polluted}}\n`);
    const unknown = await runCli(['run', file, '--env', 'dev'], { env, cwd: dirname(file) });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('unknown variable "polluted"');
    const dotted = tmp.write('pollute/dotted.http', `GET ${recorder.url}/v?got={{__proto__.polluted}}\n`);
    expect(await sent(dotted, ['--env', 'dev'])).toEqual(['/v?got=yes']);
  });

  test('names nothing that is not defined: {{constructor}} with no such variable is unknown, never Object', async () => {
    const file = project('undefined', {}, `GET ${recorder.url}/v?got={{constructor}}\n`);
    const result = await runCli(['run', file], { env, cwd: dirname(file) });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('unknown variable "constructor"');
    expect(result.stderr).not.toContain('native code');
  });
});

describe('an environment variable named like an object\'s machinery, and not set', () => {
  // process.env inherits from Object.prototype: `{{$processEnv constructor}}` sent `function () { [native code] }`,
  // `{{env.__proto__}}` sent `[object Object]`, where an unset name is exit 3.
  test.each([
    ['{{$processEnv constructor}}', 'constructor'],
    ['{{$processEnv toString}}', 'toString'],
    ['{{$processEnv %hasOwnProperty}}', 'hasOwnProperty'],
    ['{{env.__proto__}}', '__proto__'],
    ['{{$env.constructor}}', 'constructor'],
    ['{{process.env.toString}}', 'toString'],
  ])('%s is exit 3 naming it, nothing sent', async (template, name) => {
    const file = project('process-env', {}, `GET ${recorder.url}/env?got=${template}\n`);
    const before = recorder.received.length;
    const result = await runCli(['run', file], { env, cwd: dirname(file) });
    expect({ code: result.code, sent: recorder.received.length - before }).toEqual({ code: 3, sent: 0 });
    expect(result.stderr).toContain(`environment variable ${name} is not set`);
    expect(result.stderr).not.toContain('native code');
  });

  test("resterm's env:NAME of such a name is unset too", async () => {
    const file = project('resterm-env', { 'resterm.env.json': JSON.stringify({ dev: { v: 'env:constructor' } }) }, `GET ${recorder.url}/env?got={{v}}\n`);
    const before = recorder.received.length;
    const result = await runCli(['run', file, '--env', 'dev'], { env, cwd: dirname(file) });
    expect({ code: result.code, sent: recorder.received.length - before }).toEqual({ code: 2, sent: 0 });
    expect(result.stderr).toContain('constructor');
  });
});
