/**
 * The third-party plugin life cycle with the real `reqflow plugins` commands and the example
 * package plugins/auth-hmac: link it, sign requests that a local server verifies, unlink it
 * (clear error for `# @auth hmac`), then install it from a tarball, list it and uninstall it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expectCleanFailure, expectNoStackTrace } from './helpers/expect-error.js';
import { buildPlugin, pluginSandbox, warningLines } from './helpers/plugins.js';
import { listenOnLoopback } from './servers/http-utils.js';

const SECRET = 'hmac-s3cr3t-value';
const PACKAGE = 'reqflow-plugin-auth-hmac';

/**
 * Verifies the scheme as the plugin's README documents it, written independently of the
 * plugin: HMAC-SHA256 over "METHOD\npath?query\ntimestamp\nhex(sha256(body))".
 */
async function startVerifyingServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const timestamp = String(req.headers['x-timestamp'] ?? '');
      const signature = Buffer.from(String(req.headers['x-signature'] ?? ''), 'hex');
      const canonical = [req.method, req.url, timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
      const expected = createHmac('sha256', SECRET).update(canonical).digest();
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
      const verified = fresh && signature.length === expected.length && timingSafeEqual(signature, expected);
      res.writeHead(verified ? 200 : 401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ verified, target: req.url, bodyBytes: body.length }));
    });
  });
  return { url: `http://127.0.0.1:${await listenOnLoopback(server)}`, server };
}

const sandbox = pluginSandbox();
let api: { url: string; server: Server };
let pluginDir: string;

beforeAll(async () => {
  pluginDir = buildPlugin('auth-hmac');
  api = await startVerifyingServer();
  sandbox.write(
    '.profiles.json',
    JSON.stringify([
      { name: 'default', variables: { hmacSecret: SECRET }, auth: { type: 'hmac', secret: '{{hmacSecret}}', header: 'X-Signature', timestampHeader: 'X-Timestamp', algorithm: 'sha256' } },
      { name: 'nosecret', variables: {}, auth: { type: 'hmac' } },
      { name: 'md5', variables: { hmacSecret: SECRET }, auth: { type: 'hmac', algorithm: 'md5' } },
    ]),
  );
  sandbox.write('order.http', `# @auth hmac\nPOST ${api.url}/orders?page=2&q=a%20b\nContent-Type: application/json\n\n{"item": "book", "qty": 2}\n`);
  // No annotation: the profile's auth applies. `# @auth none` opts a request out.
  sandbox.write('list.http', `### list\nGET ${api.url}/orders\n\n### health\n# @auth none\nGET ${api.url}/health\n`);
});

afterAll(async () => {
  await new Promise((resolve) => api.server.close(resolve));
  sandbox.cleanup();
});

describe('reqflow plugins + plugins/auth-hmac', () => {
  test('nothing installed: `reqflow plugins` says so', async () => {
    const result = await sandbox.cli(['plugins']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No plugins installed.');
  });

  test('`reqflow plugins link DIR` links the package; `reqflow plugins` lists it', async () => {
    const link = await sandbox.cli(['plugins', 'link', pluginDir, '--no-install']);
    expect({ code: link.code, stderr: link.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('Linking plugin') });
    const list = await sandbox.cli(['plugins']);
    expect(list.stdout).toMatch(new RegExp(`${PACKAGE} 0\\.1\\.0 \\(link\\) ${pluginDir.replace(/[/.]/g, '\\$&')}`));
  });

  test('# @auth hmac signs method, path with query, timestamp and body; the server verifies it', async () => {
    const result = await sandbox.cli(['run', 'order.http', '-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as { status: number; body: { verified: boolean; target: string; bodyBytes: number } };
    expect(record.status).toBe(200);
    expect(record.body).toEqual({ verified: true, target: '/orders?page=2&q=a%20b', bodyBytes: Buffer.byteLength('{"item": "book", "qty": 2}') });
  });

  test('the signature covers the target as it goes on the wire: a bare ? and a quote as written (a URL object rewrites both)', async () => {
    sandbox.write('bare.http', `# @auth hmac\nGET ${api.url}/orders?\n\n###\n# @auth hmac\nGET ${api.url}/search?q="x"\n`);
    const result = await sandbox.cli(['run', 'bare.http', '-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const records = result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { body: { verified: boolean; target: string } }).body);
    expect(records).toEqual([expect.objectContaining({ verified: true, target: '/orders?' }), expect.objectContaining({ verified: true, target: '/search?q="x"' })]);
  });

  test('-v shows both headers, the signature masked, and never the secret', async () => {
    const result = await sandbox.cli(['run', 'order.http', '-v']);
    expect(result.code).toBe(0);
    const all = result.stdout + result.stderr;
    expect(all).toMatch(/X-Timestamp: \d{10}/);
    expect(all).toContain('X-Signature: •••');
    expect(all).not.toContain(SECRET);
    expect(all).not.toMatch(/X-Signature: [0-9a-f]{64}/);
  });

  test('a wrong secret is rejected by the server: exit 1', async () => {
    const result = await sandbox.cli(['run', 'order.http', '-e', 'hmacSecret=not-the-secret', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 401, body: { verified: false } });
  });

  test('the profile\'s auth signs every request but those that say # @auth none', async () => {
    const result = await sandbox.cli(['run', 'list.http', '-o', 'json']);
    expect(result.code).toBe(1); // /health is not signed, so the verifying server answers 401
    const [list, health] = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { status: number });
    expect([list?.status, health?.status]).toEqual([200, 401]);
  });

  test('no secret anywhere: exit 3 naming the variable', async () => {
    const result = await sandbox.cli(['run', 'order.http', '-p', 'nosecret']);
    expectCleanFailure(result, { code: 3, message: /unknown variable "hmacSecret"/, hint: /-e hmacSecret=value/ });
  });

  test('an unknown algorithm: exit 2 listing the supported ones', async () => {
    const result = await sandbox.cli(['run', 'order.http', '-p', 'md5']);
    expectCleanFailure(result, { code: 2, message: /hmac: unknown algorithm "md5"/, hint: /sha256, sha384, sha512/ });
  });

  test('after `reqflow plugins unlink`, # @auth hmac is a clear exit-2 error', async () => {
    const unlink = await sandbox.cli(['plugins', 'unlink', PACKAGE]);
    expect(unlink.code).toBe(0);
    expect((await sandbox.cli(['plugins'])).stdout).toContain('No plugins installed.');
    const result = await sandbox.cli(['run', 'order.http']);
    expectCleanFailure(result, { code: 2, message: /^reqflow: no plugin provides auth method "hmac" \(request "request-1"\)$/, hint: /reqflow plugins install <package>/ });
    expectNoStackTrace(result.stderr);
  });

  test('`reqflow plugins install` from a tarball, then `uninstall`', async () => {
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', sandbox.dir], { cwd: pluginDir, encoding: 'utf8', env: { ...process.env, ...sandbox.env } });
    expect(pack.status).toBe(0);
    const tarball = readdirSync(sandbox.dir).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBe(`${PACKAGE}-0.1.0.tgz`);
    const install = await sandbox.cli(['plugins', 'install', `file:${join(sandbox.dir, tarball ?? '')}`], { timeoutMs: 60_000 });
    expect({ code: install.code, stderr: install.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('installed v0.1.0') });
    const list = await sandbox.cli(['plugins']);
    expect(list.stdout).toMatch(new RegExp(`^${PACKAGE} 0\\.1\\.0$`, 'm'));

    const run = await sandbox.cli(['run', 'order.http', '-o', 'json']);
    expect(warningLines(run.stderr)).toEqual([]);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 200, body: { verified: true } });

    const uninstall = await sandbox.cli(['plugins', 'uninstall', PACKAGE], { timeoutMs: 60_000 });
    expect(uninstall.code).toBe(0);
    expect((await sandbox.cli(['plugins'])).stdout).toContain('No plugins installed.');
    expect((await sandbox.cli(['run', 'order.http'])).code).toBe(2);
  }, 90_000);
});
