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

/** A project of its own (`package.json`) holding `files`, and a request that sends `{{name}}`. */
function project(label: string, name: string, files: Record<string, string>, request = `GET ${recorder.url}/v?got={{${name}}}\n`): string {
  const dir = `${label}-${name}`;
  tmp.write(`${dir}/package.json`, '{}');
  for (const [file, text] of Object.entries(files)) tmp.write(`${dir}/${file}`, text);
  return tmp.write(`${dir}/req.http`, request);
}

async function sent(file: string, args: string[] = []): Promise<string[]> {
  const before = recorder.received.length;
  const result = await runCli(['run', file, ...args], { env, cwd: dirname(file) });
  expect({ code: result.code, errors: result.stderr.split('\n').filter((line) => line.startsWith('reqflow:')) }).toEqual({ code: 0, errors: [] });
  return recorder.received.slice(before).map((r) => decodeURIComponent(r.url));
}

describe.each(NAMES)('a variable named %s', (name) => {
  const json = (value: unknown): string => JSON.stringify(value);

  test('in a .env file (kulala, rest.nvim: read for a name nothing else defines)', async () => {
    expect(await sent(project('dotenv', name, { '.env': `${name}=from-dotenv\n` }))).toEqual(['/v?got=from-dotenv']);
  });

  test('in {{$dotenv NAME}}', async () => {
    expect(await sent(project('sysdotenv', name, { '.env': `${name}=from-sys-dotenv\n` }, `GET ${recorder.url}/v?got={{$dotenv ${name}}}\n`))).toEqual(['/v?got=from-sys-dotenv']);
  });

  test('in an httpyac NAME.env over .env', async () => {
    expect(await sent(project('nameenv', name, { '.env': `${name}=base\n`, 'dev.env': `${name}=from-dev-env\n` }), ['--env', 'dev'])).toEqual(['/v?got=from-dev-env']);
  });

  test('in http-client.env.json, plain JSON and with comments ($shared)', async () => {
    expect(await sent(project('jb', name, { 'http-client.env.json': json({ dev: { [name]: 'from-jetbrains' } }) }), ['--env', 'dev'])).toEqual(['/v?got=from-jetbrains']);
    const jsonc = `// shared values\n{"$shared": {${json(name)}: "from-jsonc",},}\n`;
    expect(await sent(project('jbc', name, { 'http-client.env.json': jsonc }))).toEqual(['/v?got=from-jsonc']);
  });

  test('in http-client.private.env.json, masked', async () => {
    const file = project('jbp', name, { 'http-client.env.json': json({ dev: {} }), 'http-client.private.env.json': json({ dev: { [name]: 'private-value-93f' } }) });
    expect(await sent(file, ['--env', 'dev'])).toEqual(['/v?got=private-value-93f']);
    const shown = await runCli(['run', file, '--env', 'dev', '--dry-run'], { env, cwd: dirname(file) });
    expect(shown.stdout).not.toContain('private-value-93f');
  });

  test('in .httpyac.json', async () => {
    expect(await sent(project('yac', name, { '.httpyac.json': json({ environments: { dev: { [name]: 'from-httpyac' } } }) }), ['--env', 'dev'])).toEqual(['/v?got=from-httpyac']);
  });

  test("in VS Code's rest-client.environmentVariables (JSONC), and through {{$shared NAME}}", async () => {
    const settings = `{\n  // REST Client\n  "rest-client.environmentVariables": {"$shared": {${json(name)}: "from-vscode-shared"}, "dev": {"other": "{{$shared ${name}}}"}},\n}\n`;
    const file = project('vs', name, { '.vscode/settings.json': settings }, `GET ${recorder.url}/v?got={{${name}}}&other={{other}}\n`);
    expect(await sent(file, ['--env', 'dev'])).toEqual(['/v?got=from-vscode-shared&other=from-vscode-shared']);
  });

  test('in a .profiles.json profile, plain JSON and with comments', async () => {
    expect(await sent(project('prof', name, { '.profiles.json': json([{ name: 'p', variables: { [name]: 'from-profile' } }]) }), ['-p', 'p'])).toEqual(['/v?got=from-profile']);
    const jsonc = `[/* one */ {"name": "p", "variables": {${json(name)}: "from-profile-jsonc"}}]`;
    expect(await sent(project('profc', name, { '.profiles.json': jsonc }), ['-p', 'p'])).toEqual(['/v?got=from-profile-jsonc']);
  });

  test('as an @name = value file variable', async () => {
    expect(await sent(project('filevar', name, {}, `@${name} = from-file\nGET ${recorder.url}/v?got={{${name}}}\n`))).toEqual(['/v?got=from-file']);
  });

  test('with -e NAME=VALUE', async () => {
    expect(await sent(project('cli', name, {}), ['-e', `${name}=from-cli`])).toEqual(['/v?got=from-cli']);
  });

  test('captured from a response, and kept in the session with --save', async () => {
    const file = project('capture', name, {}, `# @capture ${name} = $.id\nGET ${recorder.url}/first\n\n###\nGET ${recorder.url}/v?got={{${name}}}\n`);
    expect(await sent(file, ['--save'])).toEqual(['/first', '/v?got=captured-7']);
    // A later run reads it from the session.
    const later = tmp.write(`capture-${name}/later.http`, `GET ${recorder.url}/v?got={{${name}}}\n`);
    expect(await sent(later)).toEqual(['/v?got=captured-7']);
  });

  test("set by a script: JetBrains' client.global.set and request.variables.set", async () => {
    const file = project(
      'script',
      name,
      {},
      `GET ${recorder.url}/first\n\n> {%\n  client.global.set(${json(name)}, "from-global");\n%}\n\n###\nGET ${recorder.url}/v?got={{${name}}}\n\n###\n< {%\n  request.variables.set(${json(name)}, "from-request-variable");\n%}\nGET ${recorder.url}/w?got={{${name}}}\n`,
    );
    expect(await sent(file)).toEqual(['/first', '/v?got=from-global', '/w?got=from-request-variable']);
    // The global outlives the run (the session keeps it).
    const later = tmp.write(`script-${name}/later.http`, `GET ${recorder.url}/v?got={{${name}}}\n`);
    expect(await sent(later)).toEqual(['/v?got=from-global']);
  });
});

describe('a __proto__ key holding an object', () => {
  test('is read by dotted names, never as a prototype: its keys define no variable of their own', async () => {
    // Written by hand: JSON.stringify of an object literal's `__proto__` writes nothing.
    const file = project('pollute', 'polluted', { 'http-client.env.json': '// a hostile file\n{"dev": {"__proto__": {"polluted": "yes"}, "host": "h"}}\n' });
    const unknown = await runCli(['run', file, '--env', 'dev'], { env, cwd: dirname(file) });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('unknown variable "polluted"');
    const dotted = tmp.write('pollute-polluted/dotted.http', `GET ${recorder.url}/v?got={{__proto__.polluted}}\n`);
    expect(await sent(dotted, ['--env', 'dev'])).toEqual(['/v?got=yes']);
  });

  test('names nothing that is not defined: {{constructor}} with no such variable is unknown, never Object', async () => {
    const file = project('undefined', 'constructor', {});
    const result = await runCli(['run', file], { env, cwd: dirname(file) });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('unknown variable "constructor"');
    expect(result.stderr).not.toContain('native code');
  });
});
