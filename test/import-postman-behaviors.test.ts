/**
 * What real Postman exports hold and Postman sends differently from what is written: an item
 * with no name, a GET's body (pruned unless `disableBodyPruning`), empty bodies (`formdata: []`
 * on every GET of a v2.0 export: no body, no Content-Type), `protocolProfileBehavior`
 * inherited from a folder, a collection without `info`, an environment in UTF-16. Each is imported and run against a
 * recording server, and the bytes it receives are checked.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport, runImported, stageFixture } from './helpers/import-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
beforeAll(async () => {
  server = await startRecorder((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { Location: '/landed' }).end();
    if (req.url === '/legacy') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":7}');
    if (req.url === '/shadow') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":7}');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
});
afterAll(() => server.close());

describe('Postman: what Postman itself would send', () => {
  test('unnamed items, pruned GET bodies, empty bodies and protocolProfileBehavior', async () => {
    const staged = stageFixture('postman/behaviors.postman_collection.json', { 'https://behaviors.example.com': server.url });
    try {
      const imported = await runImport(['postman', staged.source, '-o', 'out'], staged.dir);
      expect(imported.code).toBe(0);
      expect(imported.stderr).toContain('Postman request "no redirect": Postman\'s protocolProfileBehavior followOriginalHttpMethod has no equivalent in reqflow: not imported');
      expect(imported.stderr).toContain('Postman follows redirects for 8 requests: run them with reqflow run -L');
      const out = join(staged.dir, 'out');
      const main = readFileSync(join(out, 'behaviors.http'), 'utf8');
      // The unnamed item is named as Postman shows it: its method and URL.
      expect(main).toContain(`### GET ${server.url}/unnamed`);
      expect(main).toContain('# Postman does not send the body of a GET request');
      expect(main).not.toContain('"pruned": true');
      expect(readFileSync(join(out, 'search-api.http'), 'utf8')).toContain('# @no-redirect');

      let before = server.received.length;
      expect((await runImported(join(out, 'behaviors.http'), out, ['--env', 'dev'])).code).toBe(0);
      const [unnamed, pruned] = server.received.slice(before);
      expect(unnamed?.url).toBe('/unnamed');
      expect(pruned?.url).toBe('/pruned');
      expect(pruned?.body.length).toBe(0);
      expect(pruned?.headers['content-type']).toBeUndefined();

      before = server.received.length;
      expect((await runImported(join(out, 'empty-bodies.http'), out, ['--env', 'dev'])).code).toBe(0);
      const empties = server.received.slice(before);
      expect(empties.map((r) => r.url)).toEqual(['/empty-form', '/empty-urlencoded', '/empty-raw']);
      for (const empty of empties) {
        expect(empty.body.length).toBe(0);
        expect(empty.headers['content-type']).toBeUndefined();
      }

      // A line break in a query value goes percent-encoded, as Postman sends it; a nested variable is named.
      expect(imported.stderr).toContain('Postman request "nested variable": a variable inside a variable\'s name ({{path.{{one}}}}), which reqflow does not resolve');
      before = server.received.length;
      expect((await runImported(join(out, 'urls.http'), out, ['--env', 'dev', '-n', 'newline-in-a-query-value'])).code).toBe(0);
      expect(server.received[before]?.url).toBe('/nl?foo=%0Abar%0A');

      // disableBodyPruning on the folder: its GET's body goes; followRedirects: false holds even with -L.
      before = server.received.length;
      expect((await runImported(join(out, 'search-api.http'), out, ['--env', 'dev', '-L'])).code).toBe(0);
      const [search, redirect, ...rest] = server.received.slice(before);
      expect(search?.body.toString()).toBe('{"query":{"match_all":{}}}');
      expect(search?.headers['content-type']).toBe('application/json');
      expect(redirect?.url).toBe('/redirect');
      expect(rest).toEqual([]);
    } finally {
      staged.cleanup();
    }
  });

  test('a collection without "info" (Postman and newman run one) is imported', async () => {
    const staged = stageFixture('postman/no-info.postman_collection.json', { 'https://behaviors.example.com': server.url });
    try {
      const imported = await runImport(['postman', staged.source, '-o', 'out'], staged.dir);
      expect(imported.code).toBe(0);
      const before = server.received.length;
      expect((await runImported(join(staged.dir, 'out', 'no-info.http'), join(staged.dir, 'out'), ['--env', 'dev'])).code).toBe(0);
      expect(server.received[before]?.url).toBe('/echo?say=hello');

      // An environment saved as UTF-16 with its mark (PowerShell's Out-File; newman reads it) is read.
      const environment = JSON.stringify({ name: 'Windows', values: [{ key: 'greeting', value: 'grüße', enabled: true }] });
      writeFileSync(join(staged.dir, 'windows.postman_environment.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(environment, 'utf16le')]));
      const utf16 = await runImport(['postman', staged.source, '--environment', 'windows.postman_environment.json', '-o', 'win'], staged.dir);
      expect(utf16.code).toBe(0);
      expect(JSON.parse(readFileSync(join(staged.dir, 'win', 'http-client.env.json'), 'utf8'))).toEqual({ windows: { greeting: 'grüße' } });
    } finally {
      staged.cleanup();
    }
  });

  test('a test script that names its own variable "response" (var response = pm.response.json()) still reads the response', async () => {
    const staged = stageFixture('postman/shadowing.postman_collection.json', { 'https://behaviors.example.com': server.url });
    try {
      expect((await runImport(['postman', staged.source, '-o', 'out'], staged.dir)).code).toBe(0);
      const out = join(staged.dir, 'out');
      expect(readFileSync(join(out, 'shadowing.http'), 'utf8')).toContain('var response = globalThis.response.body;');
      const run = await runImported(join(out, 'shadowing.http'), out, ['--env', 'dev', '-o', 'json']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"the note"');
      expect(run.stdout).not.toContain('"passed":false');
    } finally {
      staged.cleanup();
    }
  });

  test('the legacy script API (tests[…] =, responseBody, responseCode, postman.setEnvironmentVariable, environment.x) runs; a value set is read back as Postman reads it', async () => {
    const staged = stageFixture('postman/legacy-scripts.postman_collection.json', { 'https://behaviors.example.com': server.url });
    try {
      const imported = await runImport(['postman', staged.source, '-o', 'out'], staged.dir);
      expect(imported.code).toBe(0);
      // What has no equivalent is still named, and kept as a comment.
      expect(imported.stderr).toContain('Postman request "Read": pre-request script uses pm.request.headers.add');
      const out = join(staged.dir, 'out');
      const before = server.received.length;
      const run = await runImported(join(out, 'legacy-scripts.http'), out, ['--env', 'dev', '-o', 'json']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"Status code is 200"');
      expect(run.stdout).not.toContain('"passed":false');
      const [, read] = server.received.slice(before);
      expect(read?.url).toBe('/notes/7');
      expect(read?.headers['x-trace']).toBe('7-acme-7');
      expect(read?.headers['x-unused']).toBeUndefined();
    } finally {
      staged.cleanup();
    }
  });

  test('a folder named as the collection gets a file of its own: the collection\'s requests are not written over', async () => {
    const staged = stageFixture('postman/inbox.postman_collection.json', { 'https://behaviors.example.com': server.url });
    try {
      const imported = await runImport(['postman', staged.source, '-o', 'out'], staged.dir);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('wrote out/inbox.http (1 request)');
      expect(imported.stdout).toContain('wrote out/inbox-2.http (1 request)');
      const out = join(staged.dir, 'out');
      const before = server.received.length;
      for (const file of ['inbox.http', 'inbox-2.http']) expect((await runImported(join(out, file), out, ['--env', 'dev'])).code).toBe(0);
      expect(server.received.slice(before).map((r) => r.url)).toEqual(['/health', '/messages']);
    } finally {
      staged.cleanup();
    }
  });
});

