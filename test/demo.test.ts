/**
 * The README's first commands: `npm run demo` runs every example (every request of each) against
 * the bundled demo API, and `npm run demo:api` serves that API for the tour, or says why not.
 */
import { describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';

/** Runs a script of the repository; when its output matches `until`, `then` runs and the script is stopped. */
function node(args: string[], until?: RegExp, then?: (match: RegExpExecArray) => Promise<void>): Promise<{ code: number | null; stdout: string; stderr: string; matched?: RegExpExecArray }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let matched: RegExpExecArray | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = until?.exec(stdout);
      if (found && !matched) {
        matched = found;
        void (then?.(found) ?? Promise.resolve()).finally(() => child.kill('SIGTERM'));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(matched ? { matched } : {}) });
    });
  });
}

describe('npm run demo', () => {
  test('runs every request of every example file, the YAML list included', async () => {
    const { code, stdout, stderr } = await node([join('examples', 'demo.js')]);
    expect({ code, stderr: stderr.replace(/^HTTP\/1\.1 .*\n/gm, '') }).toEqual({ code: 0, stderr: '' });
    // examples/users.yaml: both requests, the second one filtered.
    expect(stdout).toContain('"path": "/echo"');
    expect(stdout).toContain('"name": "Grace Hopper"');
    // examples/login.http: the login's token authenticates the next request.
    expect(stdout).toContain('"user": "alice"');
  }, 90_000);
});

describe('npm run demo:api', () => {
  test('serves the demo API and says where; Ctrl-C (SIGTERM) stops it cleanly', async () => {
    let health: unknown;
    const result = await node([join('examples', 'demo-api.js'), '0'], /listening on (http:\/\/127\.0\.0\.1:\d+)/, async (match) => {
      health = await (await fetch(`${match[1]}/health`)).json();
    });
    expect(result.stderr).toBe('');
    expect(result.matched).toBeDefined();
    expect(health).toEqual({ status: 'ok' });
    expect(result.code).toBe(0);
  });

  test('a port in use is one line and a hint, exit 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await node([join('examples', 'demo-api.js'), String(port)]);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^demo-api: cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is in use`));
      expect(stderr).toMatch(/^hint: /m);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
