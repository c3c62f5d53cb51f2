/**
 * Shell completion, through the real shells: the script `reqflow autocomplete SHELL` prints is
 * loaded into bash, zsh or fish, which call the built CLI (`reqflow` on PATH) as they do on TAB.
 * bash: COMP_LINE/COMP_POINT set as readline sets them, the completion function called, COMPREPLY
 * read. fish: `complete -C LINE`, fish's own completion engine. zsh: the function run in zsh with
 * `words`/`CURRENT`/`PREFIX` set as compsys sets them and compadd/_describe recording what they
 * are given (zsh only where it is installed).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, runCli, tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-completion-');
const work = join(tmp.dir, 'work');
const scripts: Record<string, string> = {};
const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const env = (): NodeJS.ProcessEnv => ({ PATH: `${join(tmp.dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: join(tmp.dir, 'home'), LANG: 'C.UTF-8' });

beforeAll(async () => {
  mkdirSync(join(tmp.dir, 'bin'));
  writeFileSync(join(tmp.dir, 'bin', 'reqflow'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  tmp.write('work/package.json', '{"name": "api-project"}\n'); // the project root: the environment search stops here
  tmp.write('work/api/users.http', '### list users\nGET {{baseUrl}}/users\n\n###\n# @name create\nPOST {{baseUrl}}/users\n\n### a:b\nGET {{baseUrl}}/ab\n');
  tmp.write('work/api/orders.rest', 'GET {{baseUrl}}/orders\n');
  tmp.write('work/api/notes.json', '{"name": "notes", "url": "{{baseUrl}}/notes"}'); // a request file on one line
  tmp.write('work/api/config.yaml', 'replicas: 3\n');
  tmp.write('work/api/readme.md', '# API\n');
  mkdirSync(join(work, 'api/docs'));
  copyFileSync(join(ROOT, 'docs/record.schema.json'), join(work, 'api/docs/record.schema.json'));
  tmp.write('work/my requests/smoke.http', 'GET {{baseUrl}}/health\n');
  tmp.write('work/node_modules/dep/x.http', 'GET https://example.com\n');
  tmp.write('work/.hidden/x.http', 'GET https://example.com\n');
  tmp.write('work/http-client.env.json', JSON.stringify({ $shared: { baseUrl: 'http://localhost' }, dev: {}, prod: {} }));
  tmp.write('work/staging.env', 'baseUrl=http://staging\n');
  tmp.write('work/.profiles.json', JSON.stringify([{ name: 'default', variables: {} }, { name: 'ci', variables: {} }]));
  tmp.write('work/elsewhere/team.json', JSON.stringify([{ name: 'alice', variables: {} }, { name: 'bob', variables: {} }]));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['autocomplete', shell]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    // zsh's as installed: a file named _reqflow in a folder of $fpath, autoloaded
    scripts[shell] = tmp.write(shell === 'zsh' ? 'zfunc/_reqflow' : `scripts/${shell}`, result.stdout);
  }
});
afterAll(() => tmp.cleanup());

function run(command: string, args: string[], vars: Record<string, string> = {}, extraEnv: NodeJS.ProcessEnv = {}): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: work, env: { ...env(), ...extraEnv, ...vars } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean)) : reject(new Error(`${command} exited ${code}: ${err}`))));
  });
}

/**
 * What bash offers for `line` with the cursor at `cursor` (default: the end): COMP_LINE and
 * COMP_POINT (in bytes) as readline sets them — the script reads those, not COMP_WORDS — then
 * the script's function; COMPREPLY is what readline would insert or list.
 */
function bash(line: string, cursor = line.length, extraEnv: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const script = `source "$SCRIPT"
COMP_LINE=$LINE
COMP_POINT=$POINT
_reqflow_complete
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return run('bash', ['-c', script], { SCRIPT: scripts.bash as string, LINE: line, POINT: String(Buffer.byteLength(line.slice(0, cursor))) }, extraEnv);
}

describe('bash', () => {
  test('a command or a request file first; after run, test and tui: request files and folders only', async () => {
    const first = await bash('reqflow ');
    expect(first).toEqual(expect.arrayContaining(['run', 'test', 'tui', 'oauth', 'cookies', 'autocomplete', 'api/', 'my\\ requests/']));
    expect(first.join(' ')).not.toMatch(/__complete|node_modules|\.hidden|package\.json/);
    // .json and .yaml only when they parse as requests: notes.json (one line) yes; config.yaml, a schema, readme.md no
    expect(await bash('reqflow run api/')).toEqual(['api/docs/', 'api/notes.json', 'api/orders.rest', 'api/users.http']);
    expect(await bash('reqflow run api/docs/')).toEqual([]);
    expect(await bash('reqflow test api/users.http a')).toEqual(['api/']);
    expect(await bash('reqflow tui my')).toEqual(['my\\ requests/']);
    expect(await bash('reqflow run my\\ requests/')).toEqual(['my\\ requests/smoke.http']);
    expect(await bash('reqflow run "my requests/s')).toEqual(['my requests/smoke.http']); // inside the quote the word opened
    expect(await bash('reqflow api/users.http ')).toEqual([]); // `reqflow FILE` is run: one file
  });

  test('-n and --name: the request names of the file on the line, quoted for bash', async () => {
    expect(await bash('reqflow run api/users.http -n ')).toEqual(['list\\ users', 'create', 'a:b']);
    expect(await bash('reqflow run api/users.http --name=li')).toEqual(['list\\ users']); // bash keeps `--name=`
    expect(await bash('reqflow run api/users.http -n a:')).toEqual(['b']); // and `a:`: COMP_WORDBREAKS
    expect(await bash('reqflow api/users.http -n c')).toEqual(['create']);
    // the cursor before the file: the file still counts
    const line = 'reqflow run -n  api/users.http';
    expect(await bash(line, line.indexOf('  ') + 1)).toEqual(['list\\ users', 'create', 'a:b']);
    expect(await bash('reqflow run api/missing.http -n ')).toEqual([]);
  });

  test('--env: the environments of the files found for the request file (JetBrains and dotenv); -p: the profiles', async () => {
    expect(await bash('reqflow run api/users.http --env ')).toEqual(['dev', 'prod', 'staging']);
    expect(await bash('reqflow run api/users.http --env=p')).toEqual(['prod']);
    expect(await bash('reqflow test api --env s')).toEqual(['staging']);
    expect(await bash('reqflow run api/users.http -p ')).toEqual(['default', 'ci']);
    expect(await bash('reqflow tui -p c')).toEqual(['ci']);
    expect(await bash('reqflow run api/users.http --profiles elsewhere/team.json -p ')).toEqual(['alice', 'bob']);
    expect(await bash('reqflow oauth login -p d')).toEqual(['default']);
  });

  test('flags, -o values, subcommands, the shells', async () => {
    expect(await bash('reqflow run api/users.http --na')).toEqual(['--name']);
    expect(await bash('reqflow run api/users.http --no-c')).toEqual(['--no-cookies', '--no-color']);
    expect(await bash('reqflow run api/users.http -o ')).toEqual(['pretty', 'json', 'raw']);
    expect(await bash('reqflow test --rep')).toEqual(['--report', '--repeat']);
    expect(await bash('reqflow oauth ')).toEqual(['login', 'logout', 'status']);
    expect(await bash('reqflow autocomplete ')).toEqual(['bash', 'zsh', 'fish']);
    expect(await bash('reqflow run api/users.http --profiles elsewhere/')).toEqual(['elsewhere/team.json']); // a PATH value: any file
  });

  test('commands of a plugin installed with `reqflow plugins` are completed too (found through oclif)', async () => {
    const plugin = join(tmp.dir, 'greet');
    tmp.write('greet/package.json', JSON.stringify({ name: 'reqflow-plugin-greet', version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
    tmp.write('greet/commands/greet.js', "export default class Greet {\n  static summary = 'Say hello';\n  static flags = { loud: { name: 'loud', type: 'boolean' } };\n  static args = {};\n  static run() {}\n}\n");
    const data = join(tmp.dir, 'data');
    tmp.write('data/reqflow/package.json', JSON.stringify({ private: true, oclif: { schema: 1, plugins: [{ type: 'link', name: 'reqflow-plugin-greet', root: plugin }] } }));
    expect(await bash('reqflow gr', undefined, { XDG_DATA_HOME: data })).toEqual(['greet']);
    expect(await bash('reqflow greet --l', undefined, { XDG_DATA_HOME: data })).toEqual(['--loud']);
    expect(await bash('reqflow run api/users.http -p ', undefined, { XDG_DATA_HOME: data })).toEqual(['default', 'ci']);
  });
});

describe('fish', () => {
  const fish = (line: string): Promise<string[]> => run('fish', ['-c', 'source $SCRIPT; complete -C"$LINE"'], { SCRIPT: scripts.fish as string, LINE: line });
  (has('fish') ? test : test.skip)(`completions with their descriptions${has('fish') ? '' : ' (fish is not installed: skipped)'}`, async () => {
    expect(await fish('reqflow run api/')).toEqual(['api/docs/', 'api/notes.json', 'api/orders.rest', 'api/users.http']);
    expect(await fish("reqflow run api/users.http -n 'li")).toEqual(['list users\tGET {{baseUrl}}/users']);
    expect(await fish('reqflow run api/users.http --env=')).toEqual(['--env=dev', '--env=prod', '--env=staging']);
    expect(await fish('reqflow oauth s')).toEqual([expect.stringMatching(/^status\t\S/)]);
  });
});

describe('zsh', () => {
  /**
   * The script autoloaded from $fpath as compinit would, and run as compsys runs it: `words`,
   * `CURRENT` and `PREFIX` (the current word before the cursor, an open quote left out) set,
   * compadd and _describe recording what they are given.
   */
  const zsh = (words: string[], prefix: string): Promise<string[]> => {
    const script = `fpath=("\${SCRIPT:h}" $fpath)
autoload -Uz _reqflow
compadd() { local suffix=space; if [[ $1 == -S ]]; then suffix="'$2'"; shift 2; fi; [[ $1 == -- ]] && shift; local m; for m in "$@"; do print -r -- "$m ($suffix)"; done }
_describe() { local m; for m in "\${(@P)4}"; do print -r -- "$m"; done }
words=(\${(z)WORDS})
CURRENT=$WORD_AT
PREFIX=$PREFIX_TYPED
_reqflow`;
    return run('zsh', ['-f', '-c', script], { SCRIPT: scripts.zsh as string, WORDS: words.join(' '), WORD_AT: String(words.length), PREFIX_TYPED: prefix }, { ZDOTDIR: tmp.dir });
  };
  (has('zsh') ? test : test.skip)(`files, folders (no space after them), described names and flags${has('zsh') ? '' : ' (zsh is not installed: skipped)'}`, async () => {
    expect(await zsh(['reqflow', 'run', 'api/'], 'api/')).toEqual(['api/notes.json (space)', 'api/orders.rest (space)', 'api/users.http (space)', "api/docs/ ('')"]);
    expect(await zsh(['reqflow', 'run', 'api/users.http', '-n', "'a"], 'a')).toEqual(['a\\:b:GET {{baseUrl}}/ab']);
    expect(await zsh(['reqflow', 'run', 'api/users.http', '--env='], '--env=')).toEqual(['--env=dev (space)', '--env=prod (space)', '--env=staging (space)']);
    expect(await zsh(['reqflow', 'run', '--verb'], '--verb')).toEqual([expect.stringMatching(/^--verbose:Show request and response headers/)]);
  });
});

test('`reqflow autocomplete` without a shell says how to install the script for $SHELL', async () => {
  const result = await runCli(['autocomplete'], { env: { SHELL: '/usr/bin/fish' } });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('reqflow autocomplete fish > ~/.config/fish/completions/reqflow.fish');
  expect(result.stdout).not.toContain('bash');
});
