/**
 * Files named by a request file, a flag or a document someone else wrote, read by reqflow:
 * a device where a file is expected (/dev/zero never ends: read whole, it takes every byte of
 * memory), and an OpenAPI `$ref` reaching out of the spec's project for a file of secrets.
 * Each is exit 2 naming the file, at once, and nothing is sent or written.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
