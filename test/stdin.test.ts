/**
 * Requests from stdin and pipes: `reqflow run -` and `reqflow test -` read the request file
 * from stdin, a named pipe or a process substitution (`<(printf …)`) is read like a file, all
 * within the size limit of request files; devices stay refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli, runShell, tempDir, type CliResult } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir('reqflow-stdin-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder((req, res) => res.end(`${req.method} ${req.url}`));
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});
beforeEach(() => {
  server.received.length = 0;
});

function run(args: string[], input: string): Promise<CliResult> {
  return runCli(args, { cwd: tmp.dir, env, input });
}

/** A shell command line run by bash in the temporary folder (process substitution, pipes). */
function bash(script: string): Promise<CliResult> {
  return runShell('bash', script, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', REQFLOW: `${process.execPath} ${BIN}`, ...env } });
}

describe('reqflow run - and reqflow test -', () => {
  test('an .http file from stdin: `< ./file` bodies and # @import from the current folder', async () => {
    writeFileSync(join(tmp.dir, 'body.json'), '{"from": "a file"}');
    writeFileSync(join(tmp.dir, 'vars.http'), `@base = ${server.url}\n\n### not-run\nGET {{base}}/not-run\n`);
    const result = await run(['run', '-', '-o', 'raw'], '# @import ./vars.http\nPOST {{base}}/items\nContent-Type: application/json\n\n< ./body.json\n');
    expect(result).toMatchObject({ code: 0, stdout: 'POST /items' });
    expect(server.received[0]?.body.toString()).toBe('{"from": "a file"}');
  });

  test('--format yaml and --format json; reqflow - is reqflow run -', async () => {
    expect(await run(['run', '-', '--format', 'yaml', '-o', 'raw'], `name: y\nmethod: PUT\nurl: ${server.url}/yaml\n`)).toMatchObject({ code: 0, stdout: 'PUT /yaml' });
    expect(await run(['run', '-', '--format', 'json', '-o', 'raw'], JSON.stringify({ requests: [{ url: `${server.url}/a` }, { url: `${server.url}/b`, method: 'DELETE' }] }))).toMatchObject({ code: 0, stdout: 'GET /aDELETE /b' });
    expect(await run(['-', '-o', 'raw'], `GET ${server.url}/bare\n`)).toMatchObject({ code: 0, stdout: 'GET /bare' });
    const unknown = await run(['run', '-', '--format', 'toml'], `GET ${server.url}/x\n`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^reqflow: --format must be http, yaml or json, got "toml"/);
    expect(server.received.map((r) => r.url)).toEqual(['/yaml', '/a', '/b', '/bare']);
  });

  test('errors name the file <stdin>; an empty stdin has no requests', async () => {
    const broken = await run(['run', '-'], `GET ${server.url}/x\nX-Token abc\n`);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^reqflow: <stdin>:2:1: header line has no "Name: value" form: X-Token abc$/m);
    const empty = await run(['run', '-'], '');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^reqflow: <stdin>: no requests found/);
    expect(server.received).toEqual([]);
  });

  test('reqflow test - runs the checks of the file from stdin, beside named files', async () => {
    const other = join(tmp.dir, 'other.http');
    writeFileSync(other, `### other\nGET ${server.url}/other\n`);
    const result = await run(['test', '-', other], `### checked\nGET ${server.url}/checked\n\n?? body == GET /checked\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/PASS {2}<stdin> › checked/);
    expect(result.stdout).toMatch(/PASS {2}other\.http › other/);
    const failing = await run(['test', '-'], `### checked\nGET ${server.url}/checked\n\n?? status == 201\n`);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/FAIL {2}<stdin> › checked/);
    const watch = await run(['test', '-', '--watch'], `GET ${server.url}/x\n`);
    expect(watch.code).toBe(2);
    expect(watch.stderr).toMatch(/--watch cannot watch stdin/);
  });

  test('more than 64 MiB on stdin is refused with a clear error, nothing sent', async () => {
    const result = await bash(`head -c 67108865 /dev/zero | $REQFLOW run -`);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('reqflow: cannot read requests from stdin: more than 64 MiB arrived; request files are at most 64 MiB\n');
  });

  test('on a terminal, it says how to end the input', async () => {
    // `script` gives the CLI a terminal; Ctrl-D (EOT) at the start of a line ends the input.
    if (spawnSync('script', ['--version']).status !== 0) throw new Error('the `script` command (util-linux) is needed for this test');
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} run - -o raw`, '/dev/null'], { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdin.write(`GET ${server.url}/tty\n\u0004`);
    const code = await new Promise((resolvePromise) => child.on('close', resolvePromise));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(output).toContain('reqflow: reading requests from stdin (end with Ctrl-D)');
    expect(output).toContain('GET /tty');
    expect(server.received.map((r) => r.url)).toEqual(['/tty']);
  });
});

describe('pipes are read like files, devices are not', () => {
  test('a named pipe (mkfifo)', async () => {
    const result = await bash(`mkfifo requests.fifo && { printf 'GET %s/fifo\\n' '${server.url}' > requests.fifo & } && $REQFLOW run requests.fifo -o raw; code=$?; rm -f requests.fifo; exit $code`);
    expect(result).toMatchObject({ code: 0, stdout: 'GET /fifo' });
  });

  test('a process substitution (/dev/fd/N), with run, test and no command', async () => {
    expect(await bash(`$REQFLOW run <(printf 'GET %s/fd\\n' '${server.url}') -o raw`)).toMatchObject({ code: 0, stdout: 'GET /fd' });
    expect(await bash(`$REQFLOW <(printf 'GET %s/fd2\\n' '${server.url}') -o raw`)).toMatchObject({ code: 0, stdout: 'GET /fd2' });
    const tested = await bash(`$REQFLOW test <(printf '### t\\nGET %s/fd3\\n' '${server.url}')`);
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/PASS {2}\/dev\/fd\/\d+ › t/);
    expect(await bash(`$REQFLOW run <(printf 'url: %s/fd4\\n') --format yaml -o raw`.replace('%s', server.url))).toMatchObject({ code: 0, stdout: 'GET /fd4' });
  });

  test('a pipe past 64 MiB: reading stops there, exit 2', async () => {
    const result = await bash(`$REQFLOW run <(head -c 67108865 /dev/zero)`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: cannot read request file \/dev\/fd\/\d+: more than 64 MiB arrived; request files are at most 64 MiB\n$/);
  });

  test('devices are refused at once: they would never end', async () => {
    for (const device of ['/dev/zero', '/dev/urandom', '/dev/tty']) {
      const result = await run(['run', device], '');
      expect({ device, code: result.code, stderr: result.stderr }).toEqual({ device, code: 2, stderr: `reqflow: cannot read request file ${device}: it is a device, not a file\n` });
    }
    expect(server.received).toEqual([]);
  });
});
