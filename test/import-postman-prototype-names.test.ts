/**
 * A Postman variable named `__proto__` (or `constructor`) is a variable like any other: written
 * to http-client.env.json and sent. The environment's values were gathered in a plain object, where
 * `__proto__` set the prototype instead — the variable was dropped unsaid, and the request that
 * names it failed on an unknown variable. Checked on the wire by a recorder on 127.0.0.1.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport, runImported } from './helpers/import-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
beforeAll(async () => {
  server = await startRecorder();
});
afterAll(() => server.close());

test('postman: variables named __proto__ and constructor are written and sent', async () => {
  const tmp = tempDir('reqflow-import-proto-');
  try {
    const collection = {
      info: { name: 'api', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [
        { key: '__proto__', value: 'p1' },
        { key: 'constructor', value: 'c1' },
        { key: 'base', value: server.url },
      ],
      item: [{ name: 'p', request: { method: 'GET', url: '{{base}}/x?a={{__proto__}}&b={{constructor}}' } }],
    };
    tmp.write('api.postman_collection.json', JSON.stringify(collection));
    const imported = await runImport(['postman', 'api.postman_collection.json', '-o', 'out'], tmp.dir);
    expect(imported.code).toBe(0);
    const env = readFileSync(join(tmp.dir, 'out', 'http-client.env.json'), 'utf8');
    expect(env).toContain('"__proto__": "p1"');
    expect(Object.getOwnPropertyDescriptor((JSON.parse(env) as { dev: object }).dev, '__proto__')?.value).toBe('p1');
    const before = server.received.length;
    const run = await runImported(join('out', 'api.http'), tmp.dir, ['--env', 'dev']);
    expect(run.stderr).not.toContain('reqflow:');
    expect(run.code).toBe(0);
    expect(server.received.slice(before).map((r) => r.url)).toEqual(['/x?a=p1&b=c1']);
  } finally {
    tmp.cleanup();
  }
});
