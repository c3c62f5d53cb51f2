/**
 * Keys named like an object's own machinery — `__proto__`, `constructor`, `prototype` — in the
 * object-valued fields of a request file, end to end with the built CLI against a recording
 * server: each either works as the literal name it is, or is refused naming the field; none is
 * dropped without a word. An annotation named `__proto__` was: assigned on a plain object it
 * set nothing, so `annotations: {"__proto__": …}` (or `# @__proto__`) vanished where every other
 * unknown annotation is said to be ignored (variables: prototype-variable-names.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { BUILTIN_PLUGINS } from '../src/pipeline/builtins.js';
import { PluginRegistry } from '../src/core/registry.js';
import { parseRequestFile } from '../src/pipeline/parse-file.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const NAMES = ['__proto__', 'constructor', 'prototype'] as const;

let recorder: Recorder;
const tmp = tempDir('reqflow-proto-fields-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"id":"captured-7"}');
  });
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

/** Runs `file` (written with `text`, `URL` replaced by the recorder's) and returns its result with what the recorder received. */
async function run(file: string, text: string) {
  const before = recorder.received.length;
  const path = tmp.write(file, text.replaceAll('URL', recorder.url));
  const result = await runCli(['run', path], { env, cwd: tmp.dir });
  return { ...result, received: recorder.received.slice(before) };
}

describe(`annotations named ${NAMES.join(', ')}`, () => {
  test.each([
    ['ann.json', `{"url": "URL/a", "annotations": {${NAMES.map((name) => `"${name}": "x"`).join(', ')}}}`, 1],
    ['ann.yaml', `url: URL/a\nannotations:\n${NAMES.map((name) => `  ${name}: x\n`).join('')}`, 1],
    ['ann.http', `${NAMES.map((name) => `# @${name} x\n`).join('')}GET URL/a\n`, 0],
  ])('%s: each is said to be ignored, as any unknown annotation is — never dropped unsaid', async (file, text, lineBase) => {
    const result = await run(file, text);
    expect(result.code).toBe(0);
    expect(result.received.map((request) => request.url)).toEqual(['/a']);
    // The .http file names each annotation's own line; a YAML or JSON file, line 1.
    const warnings = NAMES.map((name, i) => `reqflow: warning: unknown annotation "@${name}" in request "request-1" (${join(tmp.dir, file)}:${lineBase === 0 ? i + 1 : 1}) is ignored`);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('reqflow: warning:'))).toEqual(warnings);
  });

  test('a .ws file keeps `# @__proto__` as an annotation of its own (and the warning names it)', async () => {
    const warnings: string[] = [];
    const path = tmp.write('ann.ws', 'WEBSOCKET ws://127.0.0.1:1/\n# @__proto__ x\n');
    const [spec] = await parseRequestFile(path, new PluginRegistry(BUILTIN_PLUGINS), (message) => warnings.push(message));
    expect(Object.entries(spec?.annotations ?? {})).toEqual([['protocol', 'websocket'], ['__proto__', 'x']]);
    expect(warnings).toEqual([`unknown annotation "@__proto__" in request "ann" (${path}:1) is ignored`]);
  });

  test('a known annotation beside them still applies: `filter` picks the field', async () => {
    const result = await run('ann-filter.json', '{"url": "URL/f", "annotations": {"__proto__": {"filter": "nope"}, "filter": "id"}}');
    expect([result.code, result.stdout.trim()]).toEqual([0, '"captured-7"']);
  });
});

describe(`the other object-valued fields of a YAML or JSON request: ${NAMES.join(', ')} as literal names, or refused naming the field`, () => {
  test('headers: constructor and prototype are sent as headers of those names; __proto__ is refused naming the field', async () => {
    const sent = await run('h.yaml', 'url: URL/h\nheaders:\n  constructor: c1\n  prototype: p1\n');
    expect(sent.code).toBe(0);
    expect(sent.received[0]?.headers).toMatchObject({ constructor: 'c1', prototype: 'p1' });
    const refused = await run('h.json', '{"url": "URL/h", "headers": {"__proto__": "v"}}');
    expect([refused.code, refused.stderr.trim(), refused.received]).toEqual([2, `reqflow: ${join(tmp.dir, 'h.json')}: headers.__proto__: reqflow cannot send a header named __proto__`, []]);
  });

  test.each([
    ['body.json', `{"url": "URL/b", "method": "POST", "body": {${NAMES.map((name) => `"${name}": {"k": 12345678901234567890}`).join(', ')}}}`],
    ['body.yaml', `url: URL/b\nmethod: POST\nbody:\n${NAMES.map((name) => `  ${name}: {k: 12345678901234567890}\n`).join('')}`],
  ])('%s: an object body sends every key as written', async (file, text) => {
    const result = await run(file, text);
    expect(result.code).toBe(0);
    expect(String(result.received[0]?.body)).toBe(`{\n${NAMES.map((name) => `  "${name}": {\n    "k": 12345678901234567890\n  }`).join(',\n')}\n}`);
  });

  test('extract: a value captured under each name is that variable', async () => {
    const captures = NAMES.map((name) => `"${name}": "id"`).join(', ');
    const result = await run('extract.json', `[{"name": "a", "url": "URL/e", "extract": {${captures}}}, {"name": "b", "url": "URL/e?${NAMES.map((name, i) => `n${i}={{${name}}}`).join('&')}"}]`);
    expect(result.code).toBe(0);
    expect(result.received.map((request) => request.url)).toEqual(['/e', '/e?n0=captured-7&n1=captured-7&n2=captured-7']);
  });

  test.each(NAMES)('tls.%s is refused as an unknown field, naming it', async (name) => {
    const result = await run('tls.json', `{"url": "URL/t", "tls": {"${name}": {"insecureSkipVerify": true}}}`);
    expect([result.code, result.stderr.split('\n')[0], result.received]).toEqual([2, `reqflow: ${join(tmp.dir, 'tls.json')}: tls.${name}: unknown field`, []]);
  });
});

describe(`a profile's auth settings: ${NAMES.join(', ')} as literal names, or refused naming the field`, () => {
  /** Runs a plain GET in a folder of its own whose `.profiles.json` holds profile `dev` with `auth`. */
  async function withAuth(label: string, auth: string) {
    tmp.write(`${label}/.profiles.json`, `[{"name": "dev", "auth": ${auth}}]`);
    const before = recorder.received.length;
    const path = tmp.write(`${label}/r.http`, `GET ${recorder.url}/p\n`);
    const result = await runCli(['run', path, '-p', 'dev'], { env, cwd: tmp.dir });
    return { ...result, received: recorder.received.slice(before) };
  }

  test('custom auth: query parameters and headers of each name are sent as named', async () => {
    const result = await withAuth('custom', `{"type": "custom", "query": {${NAMES.map((name) => `"${name}": "q-${name}"`).join(', ')}}, "headers": {"constructor": "h1", "prototype": "h2"}}`);
    expect(result.code).toBe(0);
    expect(result.received[0]?.url).toBe('/p?__proto__=q-__proto__&constructor=q-constructor&prototype=q-prototype');
    expect(result.received[0]?.headers).toMatchObject({ constructor: 'h1', prototype: 'h2' });
  });

  test.each([
    ['custom', '{"type": "custom", "headers": {"__proto__": "v"}}', 'auth.headers.__proto__'],
    ['apikey', '{"type": "apikey", "value": "k", "header": "__proto__"}', 'auth.header'],
  ])('%s auth: a header named __proto__ is exit 2 naming the setting (it said only "cannot send a header named __proto__")', async (label, auth, field) => {
    const result = await withAuth(`${label}-proto`, auth);
    expect([result.code, result.stderr.split('\n')[0], result.received]).toEqual([2, `reqflow: profile "dev": ${field}: expected a header name reqflow can send (not __proto__)`, []]);
  });
});
