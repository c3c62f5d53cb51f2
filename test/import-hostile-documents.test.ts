/**
 * `reqflow import` of documents someone else wrote, hostile or broken: a field of the wrong type
 * anywhere the importer reads is exit 2 naming the file and the field, nothing written — never
 * a TypeError (exit 70). The cases are those a type-mutation fuzzer found over the fixtures of
 * test/fixtures/import (each field set to a number, an object, a list, null, text): every one
 * was exit 70 before. And the names it chooses, written into files: an OpenAPI operationId of
 * `../../x` named a body file outside the import's folder; a name's escape sequence was written
 * into the generated `.http` file as it was.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport } from './helpers/import-fixture.js';
import type { ExtraFile, ImportedFile } from '../src/import/model.js';
import { ImportVariables } from '../src/import/variables.js';
import { writeImport } from '../src/import/write-import.js';

const tmp = tempDir('reqflow-import-hostile-');
afterAll(() => tmp.cleanup());

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const collection = (item: unknown[], info: Record<string, unknown> = { name: 'c' }): unknown => ({ info: { ...info, schema: SCHEMA }, item });
const request = (fields: Record<string, unknown>): unknown => ({ name: 'r', request: { method: 'POST', url: 'https://x.example/a', ...fields } });
const har = (request: Record<string, unknown>): unknown => ({ log: { version: '1.2', entries: [{ startedDateTime: '2026-01-01T00:00:00Z', request: { method: 'GET', url: 'https://x.example/a', headers: [], ...request } }] } });

let n = 0;
async function refused(kind: string, document: unknown): Promise<string> {
  const name = `doc-${++n}.json`;
  tmp.write(name, JSON.stringify(document));
  const out = join(tmp.dir, `out-${n}`);
  const result = await runImport([kind, name, '-o', out], tmp.dir);
  expect({ code: result.code, trace: /^\s+at /m.test(result.stderr), written: existsSync(out) ? readdirSync(out) : [] }).toEqual({ code: 2, trace: false, written: [] });
  return result.stderr.split('\n').find((line) => !line.startsWith('reqflow: warning:')) as string;
}

describe('a Postman collection with a field of the wrong type', () => {
  test.each([
    ['a header name that is a number', collection([request({ header: [{ key: 5, value: {} }] })]), 'item[0].request.header[0].key: expected text, got a number'],
    ['an item that is text', collection(['']), 'item[0]: expected an object, got text'],
    ['a folder name that is a number', collection([{ name: 5, item: [request({})] }]), 'item[0].name: expected text, got a number'],
    ["the collection's name that is a number", collection([request({})], { name: 5 }), 'info.name: expected text, got a number'],
    ['a raw body that is an object', collection([request({ body: { mode: 'raw', raw: { a: 1 } } })]), 'item[0].request.body.raw: expected text, got an object'],
    ['a raw body that is a list', collection([request({ body: { mode: 'raw', raw: ['x'] } })]), 'item[0].request.body.raw: expected text, got a list'],
    ['a form field name that is a number', collection([request({ body: { mode: 'urlencoded', urlencoded: [{ key: 5, value: 'v' }] } })]), 'item[0].request.body.urlencoded[0].key: expected text, got a number'],
    ['a GraphQL query that is a number', collection([request({ body: { mode: 'graphql', graphql: { query: 5 } } })]), 'item[0].request.body.graphql.query: expected text, got a number'],
    ['a nested folder of a request whose method is an object', collection([{ name: 'f', item: [{ name: 'g', item: [request({ method: { a: 1 } })] }] }]), 'item[0].item[0].item[0].request.method: expected text, got an object'],
  ])('%s: exit 2 naming the field', async (_what, document, field) => {
    expect(await refused('postman', document)).toBe(`reqflow: doc-${n}.json: ${field}`);
  });

  test('one event object where a list goes, as newman\'s own collections write it, is read as before', async () => {
    tmp.write('one-event.json', JSON.stringify(collection([{ ...(request({}) as object), event: { listen: 'test', script: { exec: ['pm.test("ok", function () {});'] } } }])));
    const result = await runImport(['postman', 'one-event.json', '-o', join(tmp.dir, 'one-event')], tmp.dir);
    expect(result.code).toBe(0);
  });
});

describe('a HAR with a field of the wrong type', () => {
  test.each([
    ['a header that is a list of text', har({ headers: ['x'] }), 'log.entries[0].request.headers[0]: expected an object, got text'],
    ['a header that is null', har({ headers: [null] }), 'log.entries[0].request.headers[0]: expected an object, got null'],
    ['a header name that is a number', har({ headers: [{ name: 5, value: 'v' }] }), 'log.entries[0].request.headers[0].name: expected text, got a number'],
    ['a header without a name', har({ headers: [{ name: null, value: 'v' }] }), 'log.entries[0].request.headers[0].name: expected text, got null'],
    ['a header value that is a number', har({ headers: [{ name: 'X-A', value: 5 }] }), 'log.entries[0].request.headers[0].value: expected text, got a number'],
    ['a header value that is a list', har({ headers: [{ name: 'X-A', value: [] }] }), 'log.entries[0].request.headers[0].value: expected text, got a list'],
    ['a body text that is an object', har({ postData: { mimeType: 'text/plain', text: {} } }), 'log.entries[0].request.postData.text: expected text, got an object'],
  ])('%s: exit 2 naming the field', async (_what, document, field) => {
    expect(await refused('har', document)).toBe(`reqflow: doc-${n}.json: ${field}`);
  });
});

describe('names a document chooses, written into files', () => {
  const spec = (operations: Record<string, { operationId: string; example: string }>): unknown => ({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    servers: [{ url: 'https://x.example' }],
    paths: Object.fromEntries(
      Object.entries(operations).map(([path, { operationId, example }]) => [path, { post: { operationId, requestBody: { content: { 'text/plain': { example } } }, responses: { 200: { description: 'ok' } } } }]),
    ),
  });

  test("an operationId holding ../ or an absolute path names a body file inside the import's folder, never outside it (one was written at ../../../x.txt)", async () => {
    const nested = join(tmp.dir, 'deep', 'er', 'still');
    tmp.write('deep/er/still/.keep', '');
    tmp.write('deep/er/still/traversal.json', JSON.stringify(spec({ '/a': { operationId: '../../../../escaped-body', example: 'a body ending in a line break\n' }, '/b': { operationId: '/tmp/absolute-body', example: 'another\n' } })));
    const out = join(nested, 'out');
    const result = await runImport(['openapi', 'traversal.json', '-o', out], nested);
    expect(result.code).toBe(0);
    expect(existsSync(join(tmp.dir, 'escaped-body.txt'))).toBe(false);
    expect(existsSync(join(out, '..', '..', '..', '..', 'escaped-body.txt'))).toBe(false);
    expect(readdirSync(join(out, 't.bodies')).sort()).toEqual(['escaped-body.txt', 'tmp-absolute-body.txt']);
    expect(result.stdout).not.toMatch(/wrote (\/|\.\.)/m);
  });

  test('control characters of names and titles are written visible (␛), never as escape sequences; a header value holding one is exit 2', async () => {
    const out = join(tmp.dir, 'controls');
    tmp.write('controls.json', JSON.stringify(collection([{ name: 'a\u001b]0;title\u0007b', request: { method: 'GET', url: 'https://x.example/a' } }], { name: 'c\u001b[31m' })));
    const result = await runImport(['postman', 'controls.json', '-o', out], tmp.dir);
    expect(result.code).toBe(0);
    const written = readdirSync(out).map((name) => readFileSync(join(out, name), 'utf8')).join('\n');
    // eslint-disable-next-line no-control-regex -- what must not be written
    expect(written).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(written).toContain('# c␛[31m');
    expect(written).toContain('### a␛]0;title␇b');
    const spec2 = { ...(spec({ '/a': { operationId: 'op\u001b[2J', example: 'x' } }) as object) };
    tmp.write('op-controls.json', JSON.stringify(spec2));
    const op = await runImport(['openapi', 'op-controls.json', '-o', join(tmp.dir, 'op-controls')], tmp.dir);
    expect(op.code).toBe(0);
    expect(readFileSync(join(tmp.dir, 'op-controls', 't.http'), 'utf8')).toContain('# @name op␛[2J');
    expect(await refused('postman', collection([request({ header: [{ key: 'X-A', value: 'a\u001b[2Jb' }] })]))).toBe(`reqflow: doc-${n}.http: request "r": its header "X-A" holds a control character, which a header cannot carry: nothing was written`);
  });
});

test('the writer refuses any file an importer would put outside the folder, before writing one', async () => {
  const out = join(tmp.dir, 'guarded');
  const cases: Array<[ImportedFile[], ExtraFile[]]> = [
    [[{ path: '../outside.http', header: [], requests: [] }], []],
    [[], [{ path: '/tmp/absolute.profiles.json', text: '[]' }]],
  ];
  for (const [files, extraFiles] of cases) {
    const imported = { files, variables: new ImportVariables(), envName: 'dev', extraFiles };
    await expect(writeImport(imported, out, { force: true, cwd: tmp.dir })).rejects.toThrow(/^the import would write .*, outside .*guarded: nothing was written$/);
  }
  expect(existsSync(out)).toBe(false);
  expect(existsSync(join(tmp.dir, 'outside.http'))).toBe(false);
});
