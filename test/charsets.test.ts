/**
 * Text bodies in their character set: the `charset` of Content-Type, a byte-order mark, an HTML
 * `<meta charset>`, else UTF-8 — in pretty output (read whole, and streamed into a pipe),
 * `-o json` and filters; `-o raw` gives the bytes untouched; an unknown label warns once, for a
 * JSON body as for text. `reqflow test`'s checks, captures and scripts read the text the output shows.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BIN, runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { isolatedEnv, selectRequest, startHarness } from './helpers/tui-harness.js';

const CAFE = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x20, 0x80]); // "café naïve €" in windows-1252
const NIHONGO = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // 日本語 in Shift_JIS
const BODIES: Record<string, { type: string; body: Buffer }> = {
  '/latin1': { type: 'text/plain; charset=ISO-8859-1', body: CAFE },
  '/sjis': { type: 'text/html; charset="Shift_JIS"', body: Buffer.concat([Buffer.from('<p>'), NIHONGO, Buffer.from('</p>')]) },
  '/meta': { type: 'text/html', body: Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"><title>t</title></head><body>'), CAFE, Buffer.from('</body></html>')]) },
  '/utf16': { type: 'text/plain', body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo wörld', 'utf16le')]) },
  '/json-latin1': { type: 'application/json; charset=iso-8859-1', body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0x4a, 0x6f, 0x73, 0xe9]), Buffer.from('"}')]) },
  '/unknown': { type: 'text/plain; charset=x-klingon', body: Buffer.from('plain ascii') },
  '/json-unknown': { type: 'application/json; charset=x-klingon', body: Buffer.from('{"name":"Zoë"}') },
  '/utf8': { type: 'text/plain', body: Buffer.from('déjà vu ✓') },
};
let server: Server;
/** Every URL the server was asked for, query included. */
const received: string[] = [];
let base = '';
const tmp = tempDir('reqflow-charset-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(req.url ?? '');
    const answer = BODIES[(req.url ?? '').split('?')[0] ?? ''];
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': answer.type });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (path: string, ...args: string[]) => runCli(['run', tmp.write(`${path.slice(1)}.http`, `GET ${base}${path}\n`), ...args], { env });

test('Content-Type charset: latin-1 (read as windows-1252, as browsers do) and quoted Shift_JIS', async () => {
  expect((await run('/latin1')).stdout).toBe('café naïve €');
  expect((await run('/sjis')).stdout).toBe('<p>日本語</p>');
});

test('no charset in the header: an HTML <meta charset>, a UTF-16 byte-order mark, else UTF-8', async () => {
  expect((await run('/meta')).stdout).toContain('<body>café naïve €</body>');
  expect((await run('/utf16')).stdout).toBe('héllo wörld');
  expect((await run('/utf8')).stdout).toBe('déjà vu ✓');
});

test('piped pretty output (streamed, not read whole) decodes the same way', async () => {
  const piped = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'run', tmp.write('piped.http', `GET ${base}/sjis\n`)], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('close', () => resolve(out));
  });
  expect(piped).toBe('<p>日本語</p>');
});

test('-o json: text and JSON bodies decoded by their charset; a filter sees the decoded value', async () => {
  const [latin] = parseRecords((await run('/latin1', '-o', 'json')).stdout);
  expect(latin?.body).toBe('café naïve €');
  const [json] = parseRecords((await run('/json-latin1', '-o', 'json')).stdout);
  expect(json?.body).toEqual({ name: 'José' });
  expect((await run('/json-latin1', '--filter', 'name')).stdout).toBe('"José"\n');
  expect((await run('/json-latin1')).stdout).toContain('"name": "José"');
});

test('-o raw gives the bytes exactly as sent', async () => {
  const child = spawn(process.execPath, [BIN, 'run', tmp.write('raw.http', `GET ${base}/sjis\n`), '-o', 'raw'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => child.on('close', resolve));
  expect(Buffer.concat(chunks).equals(BODIES['/sjis']?.body as Buffer)).toBe(true);
});

test('a charset nobody knows: shown as UTF-8 with one warning naming it', async () => {
  const result = await run('/unknown');
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('plain ascii');
  expect(result.stderr.match(/warning: unknown charset "x-klingon" in Content-Type; shown as UTF-8\n/g)).toHaveLength(1);
});

test('JSON in a charset nobody knows: read as UTF-8 with the same one warning, in every output that decodes it', async () => {
  const warning = /warning: unknown charset "x-klingon" in Content-Type; shown as UTF-8\n/g;
  const pretty = await run('/json-unknown');
  expect(pretty.stdout).toContain('"name": "Zoë"');
  expect(pretty.stderr.match(warning)).toHaveLength(1);
  const json = await run('/json-unknown', '-o', 'json');
  expect(parseRecords(json.stdout)[0]?.body).toEqual({ name: 'Zoë' });
  expect(json.stderr.match(warning)).toHaveLength(1);
  for (const output of ['pretty', 'json']) {
    const filtered = await run('/json-unknown', '--filter', 'name', '-o', output);
    expect(filtered.stdout).toContain('Zoë');
    expect(filtered.stderr.match(warning)).toHaveLength(1);
  }
  // -o raw decodes nothing: the bytes, and nothing to warn about (as for text).
  const raw = await run('/json-unknown', '-o', 'raw');
  expect(raw.stdout).toBe('{"name":"Zoë"}');
  expect(raw.stderr).not.toMatch(warning);
});

test("reqflow test: checks, captures and scripts read a body in its charset, as the output shows it", async () => {
  const file = tmp.write(
    'checks.http',
    [
      `# @name latin`,
      `# @capture who = $.name`,
      `GET ${base}/json-latin1`,
      ``,
      `?? body $.name == José`,
      ``,
      `> {%`,
      `  client.test("script sees it", () => client.assert(response.body.name === "José", "got " + response.body.name));`,
      `%}`,
      ``,
      `###`,
      `GET ${base}/json-unknown?who={{who}}&ref={{latin.response.body.$.name}}`,
      ``,
      `?? body $.name == Zoë`,
    ].join('\n'),
  );
  const result = await runCli(['test', file], { env });
  expect(result.stdout).toContain('3/3 checks passed');
  expect(result.code).toBe(0);
  // The capture and the reference took the decoded name.
  expect(received.map(decodeURIComponent)).toContain('/json-unknown?who=José&ref=José');
});

test('the TUI response pane: JSON in an unknown charset shown as UTF-8, with the warning', async () => {
  const workspace = tempDir('reqflow-charset-tui-');
  try {
    workspace.write('klingon.http', `### klingon\nGET ${base}/json-unknown\n`);
    const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), columns: 160, rows: 30 });
    await selectRequest(h, 'klingon');
    await h.press('enter');
    // The warning comes with the headers, the body after it: both, whichever is drawn first.
    const screen = await h.waitFor((text) => text.includes('"name": "Zoë"') && text.includes('warning: unknown charset "x-klingon" in Content-Type; shown as UTF-8'));
    expect(screen).toContain('"name": "Zoë"');
    await h.close();
  } finally {
    workspace.cleanup();
  }
});

test('a charset cannot smuggle escape sequences: a decoded ESC is still shown visibly', async () => {
  const evil = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-16le' });
    res.end(Buffer.from('\u001b]52;c;ZXZpbA==\u0007 done', 'utf16le'));
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    const result = await runCli(['run', tmp.write('evil.http', `GET http://127.0.0.1:${(evil.address() as AddressInfo).port}/\n`)], { env });
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('done');
  } finally {
    await new Promise((resolve) => evil.close(resolve));
  }
});
