/**
 * Files named by a request file, a flag or a document someone else wrote, read by reqflow:
 * a device where a file is expected (/dev/zero never ends: read whole, it takes every byte of
 * memory), a named pipe where a file names a file (no one may ever write to it), and an
 * OpenAPI `$ref` reaching out of the spec's project for a file of secrets.
 * Each is exit 2 naming the file, at once, and nothing is sent or written.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-hostile-files-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
// Without the check the child reads until it is killed (code null): the bound is this time-out, not a timing assertion.
const bounded = { env, timeoutMs: 15_000 };

beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

function refused(result: { code: number | null; stderr: string }, message: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at |node:internal/);
}

test('a body include of /dev/zero is exit 2 naming the file and line; nothing is sent', async () => {
  const before = recorder.received.length;
  const file = tmp.write('zero.http', `POST ${recorder.url}/upload\nContent-Type: application/octet-stream\n\n< /dev/zero\n`);
  refused(await runCli(['run', file], bounded), /^reqflow: cannot read the body file \/dev\/zero \(.*zero\.http:4\): it is a device, not a file$/m);
  expect(recorder.received.length).toBe(before);
});

test('--profiles /dev/zero is exit 2 naming it', async () => {
  const file = tmp.write('plain.http', `GET ${recorder.url}/\n`);
  refused(await runCli(['run', file, '--profiles', '/dev/zero'], bounded), /^reqflow: cannot read profiles file \/dev\/zero: it is a device, not a file$/m);
});

test('an import of /dev/zero is exit 2, and nothing is written', async () => {
  for (const kind of ['postman', 'har', 'openapi', 'curl']) refused(await runCli(['import', kind, '/dev/zero', '-o', join(tmp.dir, 'out')], bounded), /cannot read \/dev\/zero: it is a device, not a file|no curl command|not a shell command/);
  expect(existsSync(join(tmp.dir, 'out'))).toBe(false);
});

test("curl's @file options naming a device are exit 2 naming the option", async () => {
  for (const option of ['-d @/dev/zero', '--data-binary @/dev/urandom', '-F f=@/dev/zero', '-T /dev/zero', '--data-urlencode q@/dev/zero', '--json @/dev/zero']) {
    refused(await runCli(['import', 'curl', `curl ${option} ${recorder.url}/`, '-o', join(tmp.dir, 'curl-out')], bounded), /^reqflow: curl .*: it is a device, not a file$/m);
  }
  expect(existsSync(join(tmp.dir, 'curl-out'))).toBe(false);
});

test("an OpenAPI $ref to a file outside the spec's project is exit 2 naming it; its text is written nowhere", async () => {
  const outside = tempDir('reqflow-outside-');
  try {
    const secrets = outside.write('credentials', 'aws_secret_access_key=ref-leak-4242\n');
    const project = join(tmp.dir, 'api');
    tmp.write('api/.git/HEAD', 'ref: refs/heads/main\n');
    tmp.write('api/shared/token.txt', 'in-project-not-yaml-7777\n');
    const spec = (ref: string): string =>
      `openapi: 3.0.0\ninfo: {title: t, version: '1'}\nservers: [{url: '${recorder.url}'}]\npaths:\n  /up:\n    post:\n      requestBody:\n        content:\n          text/plain:\n            schema: {type: string}\n            example: {$ref: '${ref}'}\n      responses: {'200': {description: ok}}\n`;
    for (const [name, ref, why] of [
      ['abs.yaml', secrets, /\$ref to .*credentials not read: outside the spec's project/],
      ['sub/up.yaml', '../../../' + secrets.split('/').slice(-2).join('/'), /not read: outside the spec's project/],
      ['txt.yaml', './shared/token.txt', /\$ref to .*token\.txt not read: only \.json, \.yaml and \.yml files are read/],
    ] as const) {
      const source = tmp.write(`api/${name}`, spec(ref));
      const out = join(tmp.dir, `out-${name.replace(/\W/g, '-')}`);
      refused(await runCli(['import', 'openapi', source, '-o', out], { ...bounded, cwd: project }), why);
      expect(existsSync(out)).toBe(false);
    }
    // A $ref to a YAML file of the project still works.
    tmp.write('api/shared/example.yaml', 'hello from the project\n');
    const source = tmp.write('api/ok.yaml', spec('./shared/example.yaml'));
    const out = join(tmp.dir, 'out-ok');
    const result = await runCli(['import', 'openapi', source, '-o', out], { ...bounded, cwd: project });
    expect(result.code).toBe(0);
    const written = readdirSync(out).map((name) => readFileSync(join(out, name), 'utf8')).join('\n');
    expect(written).toContain('hello from the project');
    expect(written).not.toMatch(/ref-leak-4242|in-project-not-yaml-7777/);
  } finally {
    outside.cleanup();
  }
});

describe('a named pipe where a file names a file (a link in a cloned repository to a pipe of the user\'s)', () => {
  // Read, a pipe no one writes to waits for ever: each of these hung until killed.
  const pipe = (name: string): string => {
    const path = join(tmp.dir, 'pipes', name);
    mkdirSync(join(tmp.dir, 'pipes'), { recursive: true });
    execFileSync('mkfifo', [path]);
    return path;
  };
  const inPipes = (name: string, text: string): string => tmp.write(`pipes/${name}`, text);

  test.each([
    ['a body include', (url: string) => `POST ${url}/up\n\n< ./p1\n`, 'p1', /^reqflow: cannot read the body file \.\/p1 \(.*pipes\/r-p1\.http:3\): it is a named pipe, not a file$/m],
    ['a template include', (url: string) => `POST ${url}/up\n\n<@ ./p2\n`, 'p2', /^reqflow: cannot read the body file \.\/p2 \(.*pipes\/r-p2\.http:3\): it is a named pipe, not a file$/m],
    ['a multipart part', (url: string) => `POST ${url}/up\nContent-Type: multipart/form-data; boundary=b\n\n--b\nContent-Disposition: form-data; name="f"; filename="f"\n\n< ./p3\n--b--\n`, 'p3', /^reqflow: cannot read the body file \.\/p3 \(.*pipes\/r-p3\.http:7\): it is a named pipe, not a file$/m],
    ['a pre-request script', (url: string) => `< ./p4.js\nGET ${url}/up\n`, 'p4.js', /^reqflow: r-p4\.js\.http:1: cannot read script \.\/p4\.js: it is a named pipe, not a file$/m],
    ['# @import', (url: string) => `# @import ./p5\nGET ${url}/up\n`, 'p5', /^reqflow: .*pipes\/r-p5\.http:1: # @import \.\/p5: cannot read request file .*p5: it is a named pipe, not a file$/m],
    ['# @depends', (url: string) => `# @depends ./p6\nGET ${url}/up\n`, 'p6', /^reqflow: .*pipes\/r-p6\.http:1: # @depends \.\/p6: cannot read request file .*p6: it is a named pipe, not a file$/m],
  ])('%s of a pipe is exit 2 naming the file and line; nothing is sent', async (_what, text, name, message) => {
    pipe(name);
    const file = inPipes(`r-${name}.http`, text(recorder.url));
    const before = recorder.received.length;
    refused(await runCli(['run', file], { ...bounded, cwd: join(tmp.dir, 'pipes') }), message);
    expect(recorder.received.length).toBe(before);
  });

  test('a TLS file of a pipe is exit 5 naming the setting', async () => {
    pipe('ca');
    const file = inPipes('tls.http', `# @tls.caFile ./ca\nGET https://127.0.0.1:1/\n`);
    const result = await runCli(['run', file], bounded);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^reqflow: cannot read CA file .*pipes\/ca \(tls\.caFile of request "request-1"\): it is a named pipe, not a file$/m);
  });

  test('a pipe the user names on the command line is still read: reqflow run PIPE, reqflow import har PIPE', async () => {
    /** `text` written into a new pipe by another process; resolves when it is written. */
    const fed = (name: string, text: string): { path: string; written: Promise<unknown> } => {
      const path = pipe(name);
      const writer = spawn('sh', ['-c', 'printf "%s" "$1" > "$2"', 'sh', text, path]);
      return { path, written: new Promise((resolve) => writer.once('close', resolve)) };
    };
    const requests = fed('requests.http', `GET ${recorder.url}/from-pipe\n`);
    expect((await runCli(['run', requests.path], bounded)).code).toBe(0);
    await requests.written;
    const har = fed('recorded.har', '{"log":{"entries":[{"request":{"method":"GET","url":"https://x.example/a","headers":[]}}]}}');
    expect((await runCli(['import', 'har', har.path, '-o', join(tmp.dir, 'from-pipe')], bounded)).code).toBe(0);
    await har.written;
  });
});
