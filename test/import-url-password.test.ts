/**
 * A password written in an imported URL's user part (`http://bob:pw@host`) is a credential like
 * `-u`'s: it goes to http-client.private.env.json and the shared .http file says
 * `http://bob:{{password}}@host` — curl, HAR and Postman alike (it stayed in the .http file). What
 * is sent is unchanged: the recorder on 127.0.0.1 receives the same Basic credentials.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport, runImported } from './helpers/import-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

// Percent-encoded as a URL holds it: `pw@se:cret` is sent, base64 in a Basic header.
const PASSWORD = 'Pw%40zq:xyzzy-77';
const SENT = `Basic ${Buffer.from('bob:Pw@zq:xyzzy-77').toString('base64')}`;

let server: Recorder;
let url = '';
beforeAll(async () => {
  server = await startRecorder();
  url = server.url.replace('http://', `http://bob:${PASSWORD}@`);
});
afterAll(() => server.close());

const sources: Record<string, () => { name: string; text: string }> = {
  curl: () => ({ name: 'cmd.sh', text: `curl '${url}/p?x=1'\n` }),
  har: () => ({
    name: 'rec.har',
    text: JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'GET', url: `${url}/p?x=1`, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 }, response: { status: 200 } }] } }),
  }),
  postman: () => ({
    name: 'api.postman_collection.json',
    text: JSON.stringify({ info: { name: 'api', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'p', request: { method: 'GET', url: `${url}/p?x=1` } }] }),
  }),
};

test.each(Object.keys(sources))('%s: the URL password goes to the private file, and the same credentials are sent', async (kind) => {
  const tmp = tempDir(`reqflow-import-userinfo-${kind}-`);
  try {
    const source = (sources[kind] as () => { name: string; text: string })();
    tmp.write(source.name, source.text);
    const imported = await runImport([kind, source.name, '-o', 'out'], tmp.dir);
    expect(imported.code).toBe(0);
    expect(imported.stdout + imported.stderr).not.toContain('xyzzy');
    const file = readdirSync(join(tmp.dir, 'out')).find((name) => name.endsWith('.http')) as string;
    const http = readFileSync(join(tmp.dir, 'out', file), 'utf8');
    expect(http).not.toContain('xyzzy');
    expect(http).toContain('http://bob:{{password}}@127.0.0.1:');
    expect(JSON.parse(readFileSync(join(tmp.dir, 'out', 'http-client.private.env.json'), 'utf8'))).toEqual({ dev: { password: PASSWORD } });

    const before = server.received.length;
    const run = await runImported(join('out', file), tmp.dir, ['--env', 'dev', '-v']);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('xyzzy');
    const [got] = server.received.slice(before);
    expect(got?.url).toBe('/p?x=1');
    expect(got?.headers.authorization).toBe(SENT);
  } finally {
    tmp.cleanup();
  }
});
