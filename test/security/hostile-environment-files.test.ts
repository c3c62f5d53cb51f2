/**
 * The files around a request file that a cloned repository brings — environment files
 * (`http-client.env.json`, its private twin, `.vscode/settings.json`, `.httpyac.json`, `.env`) —
 * written to crash reqflow, hold it up, or send something the request file does not say. Each
 * ends in bounded time with a one-line error naming the file (exit 2) or the variable (exit 3),
 * never a stack trace or an "internal error", and nothing is sent.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli, runShell, tempDir, type CliResult } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-hostile-envs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
// Without the fixes some of these run for minutes: the bound is this time-out (a killed child has code null), not a timing assertion.
const bounded = { env, timeoutMs: 20_000 };

beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

/** A project folder of its own (its `.git` ends the environment search there) with `files`, and a request file using `{{host}}`. */
function project(name: string, files: Record<string, string | Uint8Array>, request = 'GET {{host}}/x\n'): string {
  mkdirSync(join(tmp.dir, name, '.git'), { recursive: true });
  for (const [path, text] of Object.entries(files)) tmp.write(join(name, path), text);
  return tmp.write(join(name, 'a.http'), request);
}

function clean(result: CliResult, code: number, message: RegExp): void {
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at |node:internal/);
  expect(result.code).toBe(code);
}

const deepArray = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

test('an environment file nested 100,000 levels deep is exit 2 naming the file, with --env and without; nothing sent', async () => {
  const before = recorder.received.length;
  const file = project('deep', { 'http-client.env.json': `{"dev": {"host": "${recorder.url}", "deep": ${deepArray(100_000)}}}` });
  clean(await runCli(['run', file, '--env', 'dev'], bounded), 2, /^reqflow: \S*deep\/http-client\.env\.json:1:\d+: nested more than 1000 levels deep$/m);
  clean(await runCli(['run', file], bounded), 2, /^reqflow: \S*deep\/http-client\.env\.json:1:\d+: nested more than 1000 levels deep$/m);
  expect(recorder.received.length).toBe(before);
});

test('JSON with comments nested 100,000 levels deep (.vscode/settings.json, a trailing comma): exit 2 naming it, not a stack overflow of the JSONC parser', async () => {
  const file = project('deep-jsonc', { '.vscode/settings.json': `// settings\n{"rest-client.environmentVariables": {"dev": {"host": "${recorder.url}", "deep": ${deepArray(100_000)},}}}` });
  clean(await runCli(['run', file, '--env', 'dev'], bounded), 2, /^reqflow: \S*deep-jsonc\/\.vscode\/settings\.json:2:\d+: nested more than 1000 levels deep$/m);
});

test('a long key over 100,000 values (1.4 MB: names of 100 KB that V8 hashes alike) is exit 2 naming the file, not minutes of hashing', async () => {
  const values = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, 1]));
  const file = project('wide', { 'http-client.env.json': JSON.stringify({ dev: { host: recorder.url, ['x'.repeat(100_000)]: values } }) });
  clean(await runCli(['run', file, '--env', 'dev'], bounded), 2, /^reqflow: \S*wide\/http-client\.env\.json: a value's name is longer than 4096 characters: "x{40}"…$/m);
  // Without --env the values are read only for an unknown variable's hint, which leaves such a file out.
  clean(await runCli(['run', file], bounded), 3, /^reqflow: \S+\.http:\d+: unknown variable "host"/m);
});

test("httpyac's objects as JSON text at every level of a deep chain (quadratic text) are bounded: exit 2 naming the file", async () => {
  let chain: unknown = 'v'.repeat(1_000_000);
  for (let level = 0; level < 900; level++) chain = { a: chain };
  const file = project('chain', { '.httpyac.json': JSON.stringify({ environments: { dev: { host: recorder.url, chain } } }) });
  clean(await runCli(['run', file, '--env', 'dev'], bounded), 2, /^reqflow: \S*chain\/\.httpyac\.json: its values, with objects read by dotted names \(a\.b\.c\), come to more than 64 MiB of names and text$/m);
});

test('objects read by dotted names as before: {{base.url}} and {{plans[1]}}', async () => {
  const file = project('dotted', { 'http-client.env.json': JSON.stringify({ dev: { base: { url: recorder.url }, plans: ['a', 'b'] } }) }, 'GET {{base.url}}/p/{{plans[1]}}\n');
  const result = await runCli(['run', file, '--env', 'dev', '--dry-run'], bounded);
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain(`GET ${recorder.url}/p/b`);
});

test('an object named like a property of every object ("constructor") is a variable with dotted names, not a JetBrains setting ignored with its source text as the note', async () => {
  const file = project('constructor', { 'http-client.env.json': JSON.stringify({ dev: { host: recorder.url, constructor: { a: 'c' } } }) }, 'GET {{host}}/x?c={{constructor.a}}\n');
  const result = await runCli(['run', file, '--env', 'dev', '--dry-run'], bounded);
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain(`GET ${recorder.url}/x?c=c`);
});

test('numbers of an environment or profiles file are sent as written (a 64-bit id, 1e400, 10.50), alone and inside httpyac\'s objects as JSON text', async () => {
  const file = project('numbers', { 'http-client.env.json': `{"dev": {"host": "${recorder.url}", "id": 12345678901234567890, "big": 1e400, "price": 10.50}}` }, 'GET {{host}}/x?id={{id}}&big={{big}}&price={{price}}\n');
  const result = await runCli(['run', file, '--env', 'dev'], bounded);
  expect(result.code).toBe(0);
  expect(recorder.received.at(-1)?.url).toBe('/x?id=12345678901234567890&big=1e400&price=10.50');
  const httpyac = project('numbers-httpyac', { '.httpyac.json': '{"environments": {"dev": {"o": {"id": 12345678901234567890, "n": 1.50}}}}' }, `POST ${recorder.url}/x\n\n{{o}}\n`);
  expect((await runCli(['run', httpyac, '--env', 'dev'], bounded)).code).toBe(0);
  expect(recorder.received.at(-1)?.body.toString()).toBe('{"id":12345678901234567890,"n":1.50}');
  // A profile's too, restcli's multi-value options included.
  const profiled = project('numbers-profile', { '.profiles.json': '[{"name": "default", "variables": {"id": 12345678901234567890, "m": {"options": [1e400, 2], "active": 0}}}]' }, `GET ${recorder.url}/x?id={{id}}&m={{m}}\n`);
  expect((await runCli(['run', profiled], bounded)).code).toBe(0);
  expect(recorder.received.at(-1)?.url).toBe('/x?id=12345678901234567890&m=1e400');
});

test('a "billion laughs" of templates (a={{b}}{{b}}, b={{c}}{{c}}, … 30 levels) is exit 3 naming the variables, not an internal error; nothing sent', async () => {
  const before = recorder.received.length;
  const values: Record<string, string> = { host: recorder.url, l30: 'lol' };
  for (let level = 0; level < 30; level++) values[`l${level}`] = `{{l${level + 1}}}{{l${level + 1}}}`;
  const file = project('laughs', { 'http-client.env.json': JSON.stringify({ dev: values }) }, 'POST {{host}}/x\n\n{{l0}}\n');
  for (const args of [['--dry-run'], []]) {
    clean(await runCli(['run', file, '--env', 'dev', ...args], bounded), 3, /^reqflow: variable "l0" in request "request-1" would expand to more than 64 MiB of text \(through l0 → l1 → [l\d →]+\)$/m);
  }
  // The same through .profiles.json, in a header.
  const profiled = project('laughs-profile', { '.profiles.json': JSON.stringify([{ name: 'default', variables: values }]) }, 'GET {{host}}/x\nX-Big: {{l0}}\n');
  clean(await runCli(['run', profiled], bounded), 3, /would expand to more than 64 MiB of text/);
  expect(recorder.received.length).toBe(before);
});

test("VS Code's {{$shared x}} naming a value of 1 MB a thousand times is exit 2 naming the file and the value, not an internal error", async () => {
  const settings = { 'rest-client.environmentVariables': { $shared: { x: 'v'.repeat(1_000_000), host: recorder.url }, dev: { a: '{{$shared x}}'.repeat(1000) } } };
  const file = project('shared-laughs', { '.vscode/settings.json': JSON.stringify(settings) });
  clean(await runCli(['run', file, '--env', 'dev'], bounded), 2, /^reqflow: \S*shared-laughs\/\.vscode\/settings\.json: dev\.a: its \{\{\$shared …\}\} values come to more than 64 MiB of text$/m);
});

test("$shared values naming each other twice over forty levels (a billion laughs of {{$shared x}}) are exit 2 naming the file, in bounded time", async () => {
  const shared: Record<string, string> = { host: recorder.url, l40: 'x'.repeat(64) };
  for (let level = 0; level < 40; level += 1) shared[`l${level}`] = `{{$shared l${level + 1}}}{{$shared l${level + 1}}}`;
  const settings = { 'rest-client.environmentVariables': { $shared: shared, dev: { a: '{{$shared l0}}' } } };
  const file = project('shared-levels', { '.vscode/settings.json': JSON.stringify(settings) }, 'GET {{host}}/{{a}}\n');
  const before = recorder.received.length;
  clean(await runCli(['run', file, '--env', 'dev'], bounded), 2, /^reqflow: \S*shared-levels\/\.vscode\/settings\.json: \$shared\.l\d+: its \{\{\$shared …\}\} values come to more than 64 MiB of text$/m);
  expect(recorder.received.length).toBe(before);
});

test('a cycle through the environment ({{a}} → {{b}} → {{a}}) is exit 3 naming it', async () => {
  const file = project('cycle', { 'http-client.env.json': JSON.stringify({ dev: { host: recorder.url, a: '{{b}}', b: 'x{{a}}' } }) }, 'GET {{host}}/x?q={{a}}\n');
  clean(await runCli(["run", file, "--env", "dev"], bounded), 3, /^reqflow: \S*a\.http:1: variable cycle: a → b → a in request "request-1"$/m);
});

test('a .env that is a link to /dev/zero, or a named pipe, read by {{$dotenv A}} or for a name nothing else defines: exit 2 naming it at once', async () => {
  const before = recorder.received.length;
  const zero = project('dotenv-zero', {}, `GET ${recorder.url}/x?a={{$dotenv A}}\n`);
  symlinkSync('/dev/zero', join(tmp.dir, 'dotenv-zero', '.env'));
  clean(await runCli(['run', zero], bounded), 2, /^reqflow: cannot read \S*dotenv-zero\/\.env: it is a device or a socket, not a file$/m);
  const pipe = project('dotenv-pipe', {}, `GET ${recorder.url}/x?a={{$dotenv A}}&b={{B}}\n`);
  execFileSync('mkfifo', [join(tmp.dir, 'dotenv-pipe', '.env')]);
  clean(await runCli(['run', pipe], bounded), 2, /^reqflow: cannot read \S*dotenv-pipe\/\.env: it is a named pipe, not a file$/m);
  const unknown = project('dotenv-pipe-unknown', {}, `GET ${recorder.url}/x?b={{B}}\n`);
  execFileSync('mkfifo', [join(tmp.dir, 'dotenv-pipe-unknown', '.env')]);
  clean(await runCli(['run', unknown], bounded), 3, /^reqflow: \S+\.http:\d+: unknown variable "B"/m); // the search finds regular files only
  expect(recorder.received.length).toBe(before);
});

test('a 6 MiB .env (or dev.env) is exit 2 naming it and the limit, not gigabytes of memory', async () => {
  const big = `A=${'x'.repeat(6 * 1024 * 1024 - 3)}\n`;
  const file = project('dotenv-big', { '.env': big }, `GET ${recorder.url}/x?b={{A}}\n`);
  clean(await runCli(['run', file], bounded), 2, /^reqflow: cannot read \S*dotenv-big\/\.env: it is 6 MiB; environment, \.env and profiles files are at most 4 MiB$/m);
  const own = project('dotenv-big-own', { 'dev.env': big }, `GET ${recorder.url}/x?b={{A}}\n`);
  clean(await runCli(['run', own, '--env', 'dev'], bounded), 2, /^reqflow: cannot read \S*dotenv-big-own\/dev\.env: it is 6 MiB;/m);
});

test('a private environment file of 120,000 values alike (each a secret, its forms in one bucket of the mask index) runs in seconds, the value used masked', async () => {
  const values = Object.fromEntries(Array.from({ length: 120_000 }, (_, index) => [`k${index}`, `val${String(index).padStart(6, '0')}`]));
  const file = project('many-secrets', { 'http-client.env.json': JSON.stringify({ dev: { host: recorder.url } }), 'http-client.private.env.json': JSON.stringify({ dev: values }) }, 'POST {{host}}/x\n\nhello {{k5}}\n');
  // Registering each form sorted its bucket again: minutes. The bound is the time-out, far above what it takes now.
  const result = await runCli(['run', file, '--env', 'dev', '-v'], { env, timeoutMs: 60_000 });
  expect(result.code).toBe(0);
  expect(recorder.received.at(-1)?.body.toString()).toBe('hello val000005');
  expect(result.stdout + result.stderr).toContain('hello •••');
  expect(result.stdout + result.stderr).not.toContain('val000005');
});

test("an environment file in Latin-1 is exit 2 naming it, not sent with U+FFFD in the value; UTF-16 with a byte-order mark (PowerShell's) is read; UTF-16 without one is named", async () => {
  const before = recorder.received.length;
  const latin1 = project('latin1', { 'http-client.env.json': Buffer.from(`{"dev": {"host": "${recorder.url}", "v": "caf\u00e9"}}`, 'latin1') }, 'GET {{host}}/x?v={{v}}\n');
  clean(await runCli(['run', latin1, '--env', 'dev'], bounded), 2, /^reqflow: cannot read \S*latin1\/http-client\.env\.json: not valid UTF-8 text$/m);
  expect(recorder.received.length).toBe(before);
  const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{"dev": {"host": "${recorder.url}", "v": "caf\u00e9"}}`, 'utf16le')]);
  const utf16 = project('utf16', { 'http-client.env.json': bom }, 'GET {{host}}/x?v={{v}}\n');
  const result = await runCli(['run', utf16, '--env', 'dev'], bounded);
  expect(result.code).toBe(0);
  expect(recorder.received.at(-1)?.url).toBe('/x?v=caf%C3%A9');
  const bare = project('utf16-bare', { '.env': Buffer.from('A=1\n', 'utf16le') }, `GET ${recorder.url}/x?a={{A}}\n`);
  clean(await runCli(['run', bare], bounded), 2, /^reqflow: cannot read \S*utf16-bare\/\.env: not text: it holds NUL bytes \(UTF-16 without a byte-order mark\?\)$/m);
});

test('--profiles still reads a pipe the user names (process substitution), and a .env value as before', async () => {
  const file = project('piped', { '.env': 'A=from-dotenv\n' }, `GET ${recorder.url}/x?a={{A}}&z={{z}}\n`);
  const result = await runShell('bash', `node ${BIN} run ${file} --dry-run --profiles <(echo '[{"name": "default", "variables": {"z": "piped"}}]')`, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain(`GET ${recorder.url}/x?a=from-dotenv&z=piped`);
});

test('a value after the host the file writes that puts user info before it (…9{{p}}, p = @other-host/x) is exit 3: nothing goes to the other host', async () => {
  const before = recorder.received.length;
  const other = recorder.url.replace('http://', '');
  const file = project('moved', { 'http-client.env.json': JSON.stringify({ dev: { p: `@${other}/x`, port: other.split(':')[1], path: '/users/a@b.example' } }) }, 'GET http://127.0.0.1:9{{p}}\n');
  for (const args of [['--dry-run'], []]) {
    clean(await runCli(['run', file, '--env', 'dev', ...args], bounded), 3, new RegExp(`^reqflow: \\S*moved/a\\.http:1: the URL of request "request-1" would go to host ${other.replace(/\./g, '\\.')}, not the one the file writes, from \\{\\{p\\}\\}$`, 'm'));
  }
  expect(recorder.received.length).toBe(before);
  // A port, or a path holding an @, after the host the file writes: sent as written.
  const fine = tmp.write(join('moved', 'fine.http'), 'GET http://127.0.0.1:{{port}}{{path}}\n');
  const result = await runCli(['run', fine, '--env', 'dev'], bounded);
  expect(result.stderr).not.toMatch(/reqflow:/);
  expect(result.code).toBe(0);
  expect(recorder.received.at(-1)?.url).toBe('/users/a@b.example');
});

test("a tool config's default header holding a line break (.httpyac.json, .vscode/settings.json) is exit 2 in --dry-run and --as curl as when sent, never printed as two headers", async () => {
  const before = recorder.received.length;
  const cases: Array<[string, Record<string, string>]> = [
    ['crlf-httpyac', { '.httpyac.json': JSON.stringify({ defaultHeaders: { 'X-A': 'a\r\nEvil: 1' } }) }],
    ['crlf-vscode', { '.vscode/settings.json': JSON.stringify({ 'rest-client.defaultHeaders': { 'X-A': 'a\nEvil: 1' } }) }],
  ];
  for (const [name, files] of cases) {
    const file = project(name, files, `GET ${recorder.url}/x\n`);
    for (const args of [['--dry-run'], ['--as', 'curl'], []]) {
      const result = await runCli(['run', file, ...args], bounded);
      clean(result, 2, /^reqflow: \S*a\.http:1: GET http:\/\/127\.0\.0\.1:\d+\/x: header "X-A" cannot be sent: its value holds a character HTTP does not allow \(U\+000[DA]\)$/m);
      expect(result.stdout).not.toMatch(/^Evil: 1/m);
    }
  }
  expect(recorder.received.length).toBe(before);
});

test('a URL password holding an @ (user:p@ssw0rd@host) is masked whole in --dry-run and -v, as the URL parser reads it', async () => {
  const file = project('userinfo', { 'http-client.env.json': JSON.stringify({ dev: { pw: 'p@ssw0rd-tail' } }) }, `GET http://user:{{pw}}@${recorder.url.replace('http://', '')}/x\n`);
  const dry = await runCli(['run', file, '--env', 'dev', '--dry-run'], bounded);
  expect(dry.stdout).toContain(`GET http://user:•••@${recorder.url.replace('http://', '')}/x`);
  const verbose = await runCli(['run', file, '--env', 'dev', '-v'], bounded);
  expect(verbose.code).toBe(0);
  for (const output of [dry.stdout + dry.stderr, verbose.stdout + verbose.stderr]) expect(output).not.toContain('ssw0rd');
});
