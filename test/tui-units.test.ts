/**
 * The UI's building blocks that need no screen: token state, OAuth form validation, the line
 * editor, request discovery, the request preview, OSC 52, and the command's entry behaviour.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_PLUGINS } from '../src/pipeline/builtins.js';
import type { Profile } from '../src/core/model.js';
import { MemorySession } from '../src/core/session.js';
import type { Key } from '../src/tui/blessed.js';
import { PluginRegistry } from '../src/core/registry.js';
import { findRequestFiles } from '../src/pipeline/request-files.js';
import { palette } from '../src/report/render/colors.js';
import { loadCatalog, rowLabel, treeRows } from '../src/tui/catalog.js';
import { LineEditor } from '../src/tui/line-editor.js';
import { validateOAuthForm, type OAuthForm } from '../src/tui/oauth-fields.js';
import { osc52, OSC52_LIMIT } from '../src/tui/osc52.js';
import { previewRequest } from '../src/tui/preview.js';
import { oauthStatus, shortStatus } from '../src/plugins/auth-oauth2/status.js';
import { BIN, ROOT, runCli, tempDir } from './helpers/cli.js';

const dir = tempDir('reqflow-tui-units-');
afterAll(() => dir.cleanup());

const key = (full: string, extra: Partial<Key> = {}): Key => ({ full, name: full, ctrl: false, meta: false, shift: false, ...extra });

describe('token state for the status bar: the same answer as `reqflow oauth status`', () => {
  const now = Date.parse('2030-01-01T12:00:00Z');
  const state = (session: MemorySession): string => shortStatus(oauthStatus('p', session, { now }));
  it('reads what the OAuth plugin stores: {{token}} plus the expiry in the session data', () => {
    const session = new MemorySession('p');
    expect(state(session)).toBe('none');
    session.setData('oauth', { grant: 'authorization_code', tokenType: 'Bearer', obtainedAt: new Date(now).toISOString(), expiresAt: new Date(now + 42 * 60_000 + 5000).toISOString() });
    expect(state(session)).toBe('none'); // logged out: no token
    session.set('token', 'at');
    expect(state(session)).toBe('valid for 42 min');
    session.setData('oauth', { grant: 'authorization_code', expiresAt: new Date(now + 30_000).toISOString() });
    expect(state(session)).toBe('valid for <1 min');
    session.setData('oauth', { grant: 'authorization_code', expiresAt: new Date(now - 1000).toISOString() });
    expect(state(session)).toBe('expired');
    session.setData('oauth', { grant: 'authorization_code', refreshToken: 'r', expiresAt: new Date(now - 1000).toISOString() });
    expect(state(session)).toBe('expired (refreshes on next request)');
  });

  it('an expired client-credentials token is renewed on the next request, as oauth status says', () => {
    const session = new MemorySession('p');
    session.set('token', 'at');
    session.setData('oauth', { grant: 'client_credentials', expiresAt: new Date(now - 1000).toISOString() });
    expect(state(session)).toBe('expired (renewed on next request)');
    expect(oauthStatus('p', session, { now }).usable).toBe(true);
  });

  it('a token extracted from a response has no known expiry', () => {
    const session = new MemorySession('p');
    session.set('token', 'abc');
    expect(state(session)).toBe('set (no expiry)');
  });
});

describe('OAuth form validation', () => {
  const form = (values: Partial<OAuthForm>): OAuthForm => ({ authUrl: 'https://a.example/authorize', tokenUrl: 'https://a.example/token', clientId: 'cid', clientSecret: '', scope: '', redirectUrl: '', grant: '', deviceUrl: '', ...values });
  it('accepts a complete form and templates', () => {
    expect(validateOAuthForm(form({}), undefined)).toEqual({});
    expect(validateOAuthForm(form({ authUrl: '{{authBase}}/authorize', redirectUrl: 'http://127.0.0.1:8080/callback' }), undefined)).toEqual({});
  });
  it('names each problem by field', () => {
    expect(validateOAuthForm(form({ clientId: ' ', authUrl: 'not a url', tokenUrl: 'ftp://x/token', redirectUrl: 'https://evil.example/cb' }), undefined)).toEqual({
      clientId: 'is required',
      authUrl: 'is not an absolute URL',
      tokenUrl: 'must be an http(s) URL',
      redirectUrl: 'must point at this machine (localhost or 127.0.0.1): the callback server listens there',
    });
    expect(validateOAuthForm(form({ authUrl: '', tokenUrl: '' }), undefined).authUrl).toMatch(/required/);
  });
  it('endpoints are optional with discovery (issuer) or client credentials', () => {
    expect(validateOAuthForm(form({ authUrl: '', tokenUrl: '' }), { clientId: 'c', issuer: 'https://id.example' })).toEqual({});
    expect(validateOAuthForm(form({ authUrl: '' }), { clientId: 'c', grant: 'client_credentials' })).toEqual({});
  });
});

describe('line editor', () => {
  it('edits with the usual keys and renders secrets as bullets', () => {
    const editor = new LineEditor('hello');
    editor.handle(undefined, key('left'));
    editor.handle('X', key('X'));
    expect(editor.value).toBe('hellXo');
    editor.handle(undefined, key('home'));
    editor.handle(undefined, key('delete'));
    expect(editor.value).toBe('ellXo');
    editor.handle(undefined, key('end'));
    editor.handle(undefined, key('backspace'));
    expect(editor.value).toBe('ellX');
    editor.handle(' world', key('undefined'));
    editor.handle(undefined, key('C-w', { ctrl: true }));
    expect(editor.value).toBe('ellX ');
    editor.handle(undefined, key('C-u', { ctrl: true }));
    expect(editor.value).toBe('');
    expect(editor.handle('\u0007', key('C-g', { ctrl: true }))).toBe(false);
    editor.set('pässwörd');
    expect(editor.render(20, { secret: true })).toBe('••••••••');
    expect(editor.render(4, { focused: true })).toBe('örd\u001b[7m \u001b[27m');
  });
});

describe('request discovery', () => {
  it('finds request files, skips config files, dependencies and hidden folders', async () => {
    const root = join(dir.dir, 'discovery');
    dir.write('discovery/api/users.http', 'GET https://example.com\n');
    dir.write('discovery/api/orders.rest', 'GET https://example.com\n');
    dir.write('discovery/api/status.yaml', 'url: https://example.com/status\n');
    dir.write('discovery/api/list.json', '[{"url": "https://example.com"}]');
    dir.write('discovery/api/config.yaml', 'replicas: 3\n');
    dir.write('discovery/package.json', '{"name": "x", "repository": {"url": "https://example.com"}}');
    dir.write('discovery/node_modules/dep/x.http', 'GET https://example.com\n');
    dir.write('discovery/.git/x.http', 'GET https://example.com\n');
    dir.write('discovery/.profiles.json', '[]');
    const { catalog, labels } = await catalogOf(root);
    expect(labels).toEqual(['api/list.json', 'api/orders.rest', 'api/status.yaml', 'api/users.http']);
    expect(catalog.truncated).toBe(false);
    const bounded = await findRequestFiles(root, { depth: 6, files: 2, dataFiles: Infinity });
    expect(bounded).toEqual({ files: [join(root, 'api/list.json'), join(root, 'api/orders.rest')], truncated: true });
  });

  it('reads at most 1,000 JSON or YAML files to tell requests from data: a folder of fixtures cannot hold the tree up', async () => {
    // 20,000 data files took 6 s before the UI drew anything (each read and parsed), 100,000 half a minute.
    const root = join(dir.dir, 'fixtures');
    for (let i = 0; i <= 1_000; i++) dir.write(`fixtures/data-${String(i).padStart(4, '0')}.json`, `{"id": ${i}}`);
    dir.write('fixtures/z.json', '{"url": "https://example.com/z"}'); // past the budget: passed over unread
    dir.write('fixtures/zz.http', 'GET https://example.com/zz\n'); // no reading needed: still found
    const { catalog, labels } = await catalogOf(root);
    expect(labels).toEqual(['zz.http']);
    expect(catalog.truncated).toBe(true);
  });

  it('a JSON or YAML file is listed only when it parses as requests: a schema with "url" properties is not a broken request file', async () => {
    const root = join(dir.dir, 'shapes');
    mkdirSync(join(root, 'docs'), { recursive: true });
    copyFileSync(join(ROOT, 'docs/record.schema.json'), join(root, 'docs/record.schema.json'));
    dir.write('shapes/one-line.json', '{"name": "ping", "url": "https://example.com/ping"}');
    dir.write('shapes/wrapped.yaml', 'requests:\n  - name: a\n    url: https://example.com/a\n');
    dir.write('shapes/broken.json', '{"requests": [{"name": "no url"}]}'); // meant as requests: listed, with its error
    dir.write('shapes/deploy.yaml', 'environment:\n  name: prod\n  url: https://example.com\n'); // a url, but nested
    dir.write('shapes/users.json', '[{"id": 1, "link": "https://example.com/u/1"}, {"id": 2}]'); // data, not requests
    dir.write('shapes/trailing-comma.json', '{"url": "https://example.com",}'); // not JSON
    const { catalog, labels } = await catalogOf(root);
    expect(labels).toEqual(['broken.json', 'one-line.json', 'wrapped.yaml']);
    const rows = treeRows(catalog).map((row) => rowLabel(row, plain));
    expect(rows).toContain('✗ broken.json');
    expect(rows).toContain('  GET    ping');
    expect(rows.join('\n')).not.toContain('schema');
  });
});

/** The TUI's catalog of a folder, as the request tree shows it. */
async function catalogOf(root: string) {
  const catalog = await loadCatalog(root, new PluginRegistry(BUILTIN_PLUGINS));
  return { catalog, labels: catalog.files.map((file) => file.label) };
}

const plain = palette(false);

describe('request preview', () => {
  const marker = `${dir.dir}/shell-ran`;
  const profile: Profile = {
    name: 'dev',
    baseDir: '/',
    headers: { 'X-Api-Key': '{{apiKey}}' },
    variables: { baseUrl: 'http://h.example', apiKey: 'key-123456', user: { value: 'ann', interactive: true }, stamp: `$(touch ${marker}; date +%s)`, password: { value: '', interactive: true }, unused: '$(true)' },
  };
  it('substitutes without running shells or prompting, masks secrets, and names what is missing', async () => {
    const preview = await previewRequest(
      { name: 'r', method: 'POST', url: '{{baseUrl}}/u/{{user}}?api_key={{apiKey}}&t={{stamp}}', headers: { Authorization: 'Bearer {{token}}' }, body: '{"p": "{{password}}", "id": "{{missing}}"}', annotations: {}, source: { file: 'f', line: 1 } },
      { profile, session: new MemorySession('dev'), cliVariables: {}, env: {} },
    );
    expect(existsSync(marker)).toBe(false);
    expect(preview.url).toBe('http://h.example/u/‹user›?api_key=•••&t=‹stamp›');
    expect(preview.headers).toEqual([
      ['X-Api-Key', '•••'],
      ['Authorization', '•••'],
    ]);
    expect(preview.body).toBe('{"p": "•••", "id": "{{missing}}"}');
    expect(preview.unresolved.sort()).toEqual(['missing', 'token']);
    expect(preview.deferred.sort()).toEqual(['password', 'stamp', 'user']);
  });
  it('masks a secret header\'s value, and a body field\'s, wherever else the request writes it, as --dry-run does', async () => {
    // The pane showed `X-Trace: s3cr3t-bearer-value` and the body's copy while --dry-run, -v and the pane after the send masked them.
    const preview = await previewRequest(
      {
        name: 'r',
        method: 'POST',
        url: 'http://h.example/{{tok}}?q={{pw}}',
        headers: { Authorization: 'Bearer {{tok}}', 'X-Trace': '{{tok}}', 'X-Copy': '{{pw}}' },
        body: '{"password": "{{pw}}", "note": "{{tok}}"}',
        annotations: {},
        source: { file: 'f', line: 1 },
      },
      { profile: { name: 'dev', baseDir: '/', headers: {}, variables: { tok: 's3cr3t-bearer-value', pw: 'hunter2-long' } }, session: new MemorySession('dev'), cliVariables: {}, env: {} },
    );
    expect(preview.headers).toEqual([
      ['Authorization', '•••'],
      ['X-Trace', '•••'],
      ['X-Copy', '•••'],
    ]);
    expect(preview.url).toBe('http://h.example/•••?q=•••');
    expect(preview.body).toBe('{"password": "•••", "note": "•••"}');
  });
});

describe('OSC 52', () => {
  it('encodes the text, and cuts long text on a character boundary', () => {
    expect(osc52('héllo').sequence).toBe(`\u001b]52;c;${Buffer.from('héllo').toString('base64')}\u0007`);
    const long = 'é'.repeat(OSC52_LIMIT);
    const { sequence, truncated } = osc52(long);
    expect(truncated).toBe(true);
    const decoded = Buffer.from(sequence.slice(7, -1), 'base64').toString('utf8');
    expect(decoded).not.toContain('\uFFFD');
    expect(Buffer.byteLength(decoded)).toBeLessThanOrEqual(OSC52_LIMIT);
  });
});

describe('the tui command', () => {
  it('refuses to start without a terminal, both as `reqflow` and `reqflow tui` (exit 2)', async () => {
    for (const args of [[], ['tui', dir.dir]]) {
      const result = await runCli(args, { cwd: dir.dir, env: { REQFLOW_STATE_DIR: `${dir.dir}/state` } });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('reqflow: the terminal UI needs a terminal (stdin and stdout are not both terminals)\nhint: to send requests from a script or a pipe, use: reqflow run FILE\n');
    }
  });

  it('a plain `reqflow run` never loads neo-blessed', () => {
    const file = dir.write('lazy.http', 'GET http://127.0.0.1:1/\n');
    const probe = dir.write('probe.cjs', "process.on('exit', () => process.stderr.write('BLESSED=' + Object.keys(require.cache).some((k) => k.includes('neo-blessed')) + '\\n'));\n");
    const run = spawnSync(process.execPath, ['-r', probe, BIN, 'run', file], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, REQFLOW_STATE_DIR: `${dir.dir}/state` } });
    expect(run.stderr).toContain('BLESSED=false');
    expect(run.status).toBe(4);
    // The probe does see it when the UI module is loaded.
    writeFileSync(`${dir.dir}/load.mjs`, `await import(${JSON.stringify(`${ROOT}/dist/tui/blessed.js`)}).then((m) => m.loadBlessed());\n`);
    const loaded = spawnSync(process.execPath, ['-r', probe, `${dir.dir}/load.mjs`], { encoding: 'utf8' });
    expect(loaded.stderr).toContain('BLESSED=true');
  });
});
