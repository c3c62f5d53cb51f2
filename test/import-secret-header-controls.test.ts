/**
 * A credential header holding a control character (`Authorization: Bearer …ESC[2J`) is refused at
 * import, exit 2 naming the request and the header, its value unsaid and nothing written — as any
 * other header holding one is (docs/import.md). Moved into http-client.private.env.json as
 * `{{token}}`, it escaped that check: the import wrote it, and the first run failed on it.
 */
import { expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport } from './helpers/import-fixture.js';

const VALUE = 'Bearer zq-T0k3n-4242\u001b[2J';

const sources: Record<string, { name: string; text: string }> = {
  curl: { name: 'cmd.sh', text: `curl -H $'Authorization: Bearer zq-T0k3n-4242\\x1b[2J' http://127.0.0.1:9/d\n` },
  har: {
    name: 'rec.har',
    text: JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'GET', url: 'http://127.0.0.1:9/d', httpVersion: 'HTTP/1.1', headers: [{ name: 'Authorization', value: VALUE }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 }, response: { status: 200 } }] } }),
  },
  postman: {
    name: 'api.postman_collection.json',
    text: JSON.stringify({ info: { name: 'api', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'get-d', request: { method: 'GET', url: 'http://127.0.0.1:9/d', header: [{ key: 'Authorization', value: VALUE }] } }] }),
  },
};

test.each(Object.keys(sources))('%s: refused naming the header, the credential unsaid, nothing written', async (kind) => {
  const tmp = tempDir(`reqflow-import-secret-control-${kind}-`);
  try {
    const source = sources[kind] as { name: string; text: string };
    tmp.write(source.name, source.text);
    const result = await runImport([kind, source.name, '-o', 'out'], tmp.dir);
    expect(result.stderr).toMatch(/reqflow: \S+\.http: request "get-d": its header "Authorization" holds a control character, which a header cannot carry: nothing was written\n/);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain('T0k3n');
    expect(existsSync(join(tmp.dir, 'out'))).toBe(false);
  } finally {
    tmp.cleanup();
  }
});
