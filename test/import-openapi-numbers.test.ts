/**
 * `reqflow import openapi` keeps a spec's numbers as written (docs/import.md): an example's
 * `1.10` and `12345678901234567891` are sent as those bytes, not as a double reads them (`1.1`,
 * `12345678901234567000`) — in a JSON body, a form, XML made from the schema, a query or header
 * parameter's example, default or enum value; from a YAML spec and a JSON one. A schema's bounds
 * (`minimum: 1.0`) are still numbers to the sampler and the validator. Imported, then run against
 * a recorder on 127.0.0.1.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport, runImported } from './helpers/import-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir('reqflow-import-openapi-numbers-');
beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** One spec, as JSON (its numbers spliced in as text: JSON.stringify would round them first). */
const document = (base: string): object => ({
  openapi: '3.0.3',
  info: { title: 'n', version: '1' },
  servers: [{ url: base }],
  paths: {
    '/body': {
      post: {
        operationId: 'body',
        tags: ['n'],
        parameters: [
          { name: 'v', in: 'query', required: true, schema: { type: 'number' }, example: '@1.10' },
          { name: 'e', in: 'query', required: true, schema: { type: 'number', enum: ['@2.50', 3] } },
          { name: 'X-Big', in: 'header', schema: { type: 'integer', default: '@12345678901234567891' } },
        ],
        requestBody: { content: { 'application/json': { example: { version: '@1.10', id: '@12345678901234567891', n: 7 } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    '/sampled': {
      post: {
        operationId: 'sampled',
        tags: ['n'],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'number', example: '@1.10' }, d: { type: 'integer', default: '@12345678901234567891' }, m: { type: 'number', minimum: '@2.0' } } } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    '/form': {
      post: {
        operationId: 'form',
        tags: ['n'],
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { a: { type: 'number', example: '@1.10' }, o: { type: 'object', example: { c: '@2.50' } } } } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    // A media type with parameters is the same type (core/content-type.ts, the one rule import and the mock read).
    '/charset': {
      post: {
        operationId: 'charset',
        tags: ['n'],
        requestBody: { content: { 'application/json; charset=utf-8': { example: { v: '@1.10' } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    '/xml': {
      post: {
        operationId: 'xml',
        tags: ['n'],
        requestBody: { content: { 'application/xml': { schema: { type: 'object', xml: { name: 'r' }, properties: { a: { type: 'number', example: '@1.10' } } } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
  },
});

/** The spec as JSON text, each `"@n"` the number n as written. */
const asJson = (base: string): string => JSON.stringify(document(base)).replace(/"@([^"]+)"/g, '$1');

test.each(['json', 'yaml'])('a %s spec: every example, default and enum value is sent as written', async (kind) => {
  const dir = join(tmp.dir, kind);
  // JSON is YAML: the same text read by the YAML reader (flow style), so both readers are tested on one document.
  tmp.write(`${kind}/spec.${kind}`, kind === 'json' ? asJson(server.url) : `# YAML\n${asJson(server.url)}\n`);
  const imported = await runImport(['openapi', `spec.${kind}`, '-o', 'out'], dir);
  expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' }); // no validation warning: `minimum: 2.0` is a number to it
  const before = server.received.length;
  const run = await runImported(join('out', 'n.http'), dir, ['--env', 'dev']);
  expect(run.code).toBe(0);
  const received = new Map(server.received.slice(before).map((r) => [r.url.split('?')[0], r]));
  const body = received.get('/body');
  expect(body?.url).toBe('/body?v=1.10&e=2.50');
  expect(body?.headers['x-big']).toBe('12345678901234567891');
  expect(body?.body.toString().replace(/\s+/g, '')).toBe('{"version":1.10,"id":12345678901234567891,"n":7}');
  // Made from the schema: the examples and defaults as written; `minimum: 2.0` steered the sampler as a number.
  expect(received.get('/sampled')?.body.toString().replace(/\s+/g, '')).toBe('{"a":1.10,"d":12345678901234567891,"m":2}');
  expect(received.get('/form')?.body.toString()).toBe(`a=1.10&o=${encodeURIComponent('{"c":2.50}')}`);
  expect(received.get('/xml')?.body.toString().replace(/\s+/g, '')).toBe('<r><a>1.10</a></r>');
  expect(received.get('/charset')?.body.toString().replace(/\s+/g, '')).toBe('{"v":1.10}');
  expect(received.get('/charset')?.headers['content-type']).toBe('application/json; charset=utf-8');
});
