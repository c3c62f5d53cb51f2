/**
 * Certificate verification is on unless the user turns it off, and turning it off always warns:
 * `-k`, `# @tls.insecureSkipVerify true`, a YAML/JSON `tls` field and a profile's `tls` all
 * print a warning; nothing else (a sloppy annotation value, NODE_TLS_REJECT_UNAUTHORIZED, an
 * OAuth endpoint) disables it, and no source file sets `rejectUnauthorized: false` without a
 * warning beside it.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT, type CliResult } from './helpers/cli.js';
import { errorLines, expectCleanFailure } from './helpers/expect-error.js';
import { project, type Project } from './helpers/auth-project.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its server certificate is made by openssl.
const { describe, test } = needs(['openssl']);

let p: Project;
let server: Server;
let url: string;
let hits = 0;

beforeAll(async () => {
  p = project();
  // A self-signed server certificate, made at set-up (2048-bit RSA, 365 days).
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '365', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(p.dir, 'server.key'), '-out', join(p.dir, 'server.pem')], { stdio: 'ignore' });
  server = createServer({ key: readFileSync(join(p.dir, 'server.key')), cert: readFileSync(join(p.dir, 'server.pem')) }, (req, res) => {
    hits++;
    if (req.url === '/token') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"access_token":"tls-token","token_type":"Bearer","expires_in":3600}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"secure":"maybe"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  p.cleanup();
});

const WARNING = /^reqflow: warning: .*(verification|insecureSkipVerify)/m;

function expectInsecureButWarned(result: CliResult): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(WARNING) });
  expect(result.stderr.match(new RegExp(WARNING.source, 'gm'))).toHaveLength(1);
  expect(result.stdout).toMatch(/"secure": "maybe"/);
}

function expectRefused(result: CliResult): void {
  expectCleanFailure(result, { code: 5, message: /TLS error with 127\.0\.0\.1:\d+: .*self-signed/, hint: /tls\.caFile/ });
  expect(result.stderr).not.toMatch(WARNING);
}

describe('insecureSkipVerify', () => {
  test('verification is on by default', async () => {
    p.write('plain.http', `GET ${url}/\n`);
    expectRefused(await p.run(['run', 'plain.http']));
  });

  test('-k turns it off, with one warning for the whole run', async () => {
    p.write('two.http', `GET ${url}/a\n\n###\nGET ${url}/b\n`);
    expectInsecureButWarned(await p.run(['run', 'two.http', '-k']));
  });

  test('# @tls.insecureSkipVerify true warns', async () => {
    p.write('annotated.http', `# @tls.insecureSkipVerify true\nGET ${url}/\n`);
    expectInsecureButWarned(await p.run(['run', 'annotated.http']));
  });

  test('a YAML tls field warns', async () => {
    p.write('req.yaml', `url: ${url}/\ntls:\n  insecureSkipVerify: true\n`);
    expectInsecureButWarned(await p.run(['run', 'req.yaml']));
  });

  test("a profile's tls warns", async () => {
    const q = project();
    try {
      q.write('a.http', `GET ${url}/\n`);
      q.profiles([{ name: 'lab', tls: { insecureSkipVerify: true } }]);
      expectInsecureButWarned(await q.run(['run', 'a.http']));
    } finally {
      q.cleanup();
    }
  });

  test('false keeps verification on, and the request overrides a profile that turned it off', async () => {
    p.write('off.http', `# @tls.insecureSkipVerify false\nGET ${url}/\n`);
    expectRefused(await p.run(['run', 'off.http']));
    const q = project();
    try {
      q.write('a.http', `# @tls.insecureSkipVerify false\nGET ${url}/\n`);
      q.profiles([{ name: 'lab', tls: { insecureSkipVerify: true } }]);
      expectRefused(await q.run(['run', 'a.http']));
    } finally {
      q.cleanup();
    }
  });

  test.each(['yes', '0', 'no', 'ture'])('a sloppy annotation value (%s) is an error, not a silent skip', async (value) => {
    const before = hits;
    p.write('sloppy.http', `# @tls.insecureSkipVerify ${value}\nGET ${url}/\n`);
    expectCleanFailure(await p.run(['run', 'sloppy.http']), { code: 2, message: new RegExp(`sloppy\\.http:1:1: # @tls\\.insecureSkipVerify expects true or false, got "${value}"`), hint: /true/ });
    expect(hits).toBe(before);
  });

  test('NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment does not turn verification off', async () => {
    expectRefused(await p.run(['run', 'plain.http'], { NODE_TLS_REJECT_UNAUTHORIZED: '0' }));
  });

  test('an OAuth token endpoint with an untrusted certificate is refused', async () => {
    const q = project();
    try {
      q.write('a.http', `GET ${url}/\nAuthorization: Bearer {{token}}\n`);
      q.profiles([{ name: 'lab', oauth: { grant: 'client_credentials', clientId: 'c', clientSecret: 's', tokenUrl: `${url}/token` } }]);
      const result = await q.run(['run', 'a.http']);
      expect(result.code).toBe(5);
      expect(errorLines(result.stderr).join('\n')).toMatch(/self-signed|not trusted/);
    } finally {
      q.cleanup();
    }
  });
});

test('no source file disables verification without a warning beside it, or replaces the host name check', () => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (entry === 'node_modules') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(entry)) files.push(path);
    }
  };
  walk(join(ROOT, 'src'));
  walk(join(ROOT, 'plugins'));
  const offenders: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      // A checkServerIdentity may only hand over to Node's own check (with the URL's host, inside a proxy's tunnel).
      const delegates = /checkServerIdentity\s*:\s*\([^)]*\)\s*=>\s*\w+\.checkServerIdentity\(/.test(line);
      if (/NODE_TLS_REJECT_UNAUTHORIZED/.test(line) || (/checkServerIdentity\s*[:=]/.test(line) && !delegates)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      if (/rejectUnauthorized\s*[:=]\s*false/.test(line)) {
        // The only allowed place: where insecureSkipVerify is applied, with its warning nearby.
        const nearby = lines.slice(Math.max(0, index - 3), index + 20).join('\n');
        if (!/insecureSkipVerify/.test(line) || !/warn\(/.test(nearby)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  expect(offenders).toEqual([]);
});
