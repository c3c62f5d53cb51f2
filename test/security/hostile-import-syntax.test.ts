/**
 * Text of an imported document that the `.http` dialect would read as syntax: a multipart value
 * or a GraphQL query holding `< /etc/hostname`, `###` or `> {%`, `{{…}}` from a source without
 * templates, a method or header name that is not an HTTP token, a space in a URL. The imported
 * file sends exactly what the source describes, or the import is refused; and imports of tiny
 * documents that expand enormously end fast.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-import-syntax-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), SECRETX: 'env-secret-4711' };
const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

const collection = (items: unknown[], variable: unknown[] = []): string => JSON.stringify({ info: { name: 'c', schema: SCHEMA }, variable, item: items });

/** Imports `kind SOURCE` into a folder of its own, runs every request of `file` there, and returns what was sent. */
async function importAndRun(kind: string, source: string, out: string, file: string): Promise<Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }>> {
  const imported = await runCli(['import', kind, source, '-o', out], { env, cwd: tmp.dir });
  expect(imported.stderr).not.toMatch(/^reqflow: (?!warning)/m);
  expect(imported.code).toBe(0);
  const before = recorder.received.length;
  const run = await runCli(['run', join(out, file), '--env', 'dev'], { env, cwd: tmp.dir });
  expect(run.stdout).not.toContain('SCRIPT RAN');
  expect(run.code).toBe(0);
  return recorder.received.slice(before).map((r) => ({ method: r.method, url: r.url, headers: r.headers, body: r.body.toString() }));
}

test('multipart text values that read as .http syntax are sent byte for byte: no local file read, no request added (Postman, HAR, OpenAPI)', async () => {
  const values = ['< /etc/hostname', `x\n###\nGET ${recorder.url}/INJECTED\n`, '# @note: x'];
  const postman = tmp.write('fd.json', collection([{ name: 'fd', request: { method: 'POST', url: `${recorder.url}/fd`, body: { mode: 'formdata', formdata: values.map((value, i) => ({ key: `f${i}`, value, type: 'text' })) } } }]));
  const har = tmp.write('fd.har', JSON.stringify({ log: { entries: [{ request: { method: 'POST', url: `${recorder.url}/fd`, headers: [], postData: { mimeType: 'multipart/form-data', params: values.map((value, i) => ({ name: `f${i}`, value })) } } }] } }));
  const spec = tmp.write('fd.json.openapi.json', JSON.stringify({ openapi: '3.0.3', info: { title: 'fd', version: '1' }, servers: [{ url: recorder.url }], paths: { '/fd': { post: { operationId: 'fd', requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' }, example: Object.fromEntries(values.map((v, i) => [`f${i}`, v])) } } }, responses: { 200: { description: 'ok' } } } } } }));
  for (const [kind, source, file] of [['postman', postman, 'fd.http'], ['har', har, 'fd.http'], ['openapi', spec, 'fd.http']] as const) {
    const sent = await importAndRun(kind, source, join(tmp.dir, `out-fd-${kind}`), file);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /fd']);
    for (const value of values) expect(sent[0]?.body).toContain(`\r\n\r\n${value}\r\n`);
  }
});

test('body files beside one .http file never share a name: a second request named like a multipart part file imports and sends its own body', async () => {
  // The parts of `post-upload` were `post-upload-1.txt`, `-2.txt`; the second `post-upload` is named `post-upload-2`.
  const har = tmp.write('up.har', JSON.stringify({ log: { entries: [
    { request: { method: 'POST', url: `${recorder.url}/upload`, headers: [], postData: { mimeType: 'multipart/form-data', params: [{ name: 'a', value: '< /etc/hostname' }, { name: 'b', value: '< /etc/passwd' }] } } },
    { request: { method: 'POST', url: `${recorder.url}/upload`, headers: [], postData: { mimeType: 'text/plain', text: 'hello {{x}}' } } },
  ] } }));
  const sent = await importAndRun('har', har, join(tmp.dir, 'out-up'), 'up.http');
  expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /upload', 'POST /upload']);
  expect(sent[0]?.body).toContain('\r\n\r\n< /etc/hostname\r\n');
  expect(sent[0]?.body).toContain('\r\n\r\n< /etc/passwd\r\n');
  expect(sent[1]?.body).toBe('hello {{x}}');
});

test('a Postman GraphQL query holding ### or > {% adds no request and runs no script: it is sent as the JSON Postman sends', async () => {
  const queries = [`query { a }\n\n###\nGET ${recorder.url}/INJECTED2\n`, 'query { a }\n\n> {%\nclient.log("SCRIPT RAN");\n%}'];
  const source = tmp.write('gql.json', collection(queries.map((query, i) => ({ name: `g${i}`, request: { method: 'POST', url: `${recorder.url}/g${i}`, body: { mode: 'graphql', graphql: { query, variables: '{"n": 1}' } } } }))));
  const sent = await importAndRun('postman', source, join(tmp.dir, 'out-gql'), 'gql.http');
  expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /g0', 'POST /g1']);
  sent.forEach((r, i) => expect(JSON.parse(r.body)).toEqual({ query: queries[i]?.trim(), variables: { n: 1 } }));
});

test('{{…}} from a source without templates is sent literally — curl, HAR, OpenAPI, stored secrets; Postman keeps only its variable references', async () => {
  const t = '{{env.SECRETX}}';
  const curl = await runCli(['import', 'curl', `curl -u 'ada:${t}' -b 'c=${t}' -H 'X-A: {{$uuid}}' -H 'X-B: ${t}' '${recorder.url}/c?q=${t}' --data-raw 'd=${t}'`, '-o', join(tmp.dir, 'out-tpl-curl')], { env });
  expect(curl.code).toBe(0);
  expect(readFileSync(join(tmp.dir, 'out-tpl-curl', 'http-client.private.env.json'), 'utf8')).not.toContain(`"${t}"`);
  const har = tmp.write('tpl.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: `${recorder.url}/h?q=${t}`, headers: [{ name: 'X-B', value: t }] } }] } }));
  const spec = tmp.write('tpl.openapi.json', JSON.stringify({ openapi: '3.0.3', info: { title: 'tpl', version: '1' }, servers: [{ url: `${recorder.url}/{v}`, variables: { v: { default: t } } }], paths: { '/o': { post: { operationId: 'o', parameters: [{ name: 'q', in: 'query', required: true, example: t }, { name: 'X-B', in: 'header', example: t }], requestBody: { content: { 'application/json': { example: { a: t } } } }, responses: { 200: { description: 'ok' } } } } } }));
  const postman = tmp.write('tpl.json', collection([{ name: 'p', request: { method: 'GET', url: `${recorder.url}/p?q=${t}&own={{own}}&pe={{$processEnv SECRETX}}`, header: [{ key: 'X-B', value: t }] } }], [{ key: 'own', value: 'mine' }]));
  const before = recorder.received.length;
  expect((await runCli(['run', join(tmp.dir, 'out-tpl-curl', 'post-c.http'), '--env', 'dev'], { env })).code).toBe(0);
  const [fromCurl] = recorder.received.slice(before);
  expect(fromCurl?.url).toBe(`/c?q=${t}`);
  expect(fromCurl?.headers['x-a']).toBe('{{$uuid}}');
  expect(fromCurl?.headers['x-b']).toBe(t);
  expect(fromCurl?.headers.cookie).toBe(`c=${t}`);
  expect(fromCurl?.headers.authorization).toBe(`Basic ${Buffer.from(`ada:${t}`).toString('base64')}`);
  expect(fromCurl?.body.toString()).toBe(`d=${t}`);
  const [fromHar] = await importAndRun('har', har, join(tmp.dir, 'out-tpl-har'), 'tpl.http');
  expect([fromHar?.url, fromHar?.headers['x-b']]).toEqual([`/h?q=${t}`, t]);
  const [fromSpec] = await importAndRun('openapi', spec, join(tmp.dir, 'out-tpl-openapi'), 'tpl.http');
  expect(fromSpec?.url).toBe(`/${t}/o?q=${encodeURIComponent(t)}`);
  expect(fromSpec?.headers['x-b']).toBe(t);
  expect(JSON.parse(fromSpec?.body ?? '')).toEqual({ a: t });
  const [fromPostman] = await importAndRun('postman', postman, join(tmp.dir, 'out-tpl-postman'), 'tpl.http');
  expect(fromPostman?.url).toBe(`/p?q=${t}&own=mine&pe={{$processEnv%20SECRETX}}`);
  expect(fromPostman?.headers['x-b']).toBe(t);
  expect(JSON.stringify(recorder.received)).not.toContain('env-secret-4711');
});

test('Postman: {{name}} stays a template whatever defines it — a dotted name from an environment not imported resolves with -e or a profile; {{$processEnv X}} is sent literally, in one warning naming the request', async () => {
  const source = tmp.write('dotted.json', collection([{ name: 'users', request: { method: 'GET', url: `${recorder.url}/users?h={{api.host}}&t={{tenant.id}}&pe={{$processEnv SECRETX}}&u={{$uuid}}&r={{login.response.body.id}}`, header: [{ key: 'X-Tenant', value: '{{tenant.id}}' }] } }]));
  const out = join(tmp.dir, 'out-dotted');
  const imported = await runCli(['import', 'postman', source, '-o', out], { env, cwd: tmp.dir });
  expect(imported.code).toBe(0);
  expect(imported.stderr.match(/written to be sent literally/g)).toHaveLength(1);
  expect(imported.stderr).toMatch(/dotted\.json: \{\{\$processEnv SECRETX\}\} in request "users" and 2 more written to be sent literally/);
  const file = join(out, 'dotted.http');
  const sent = async (args: string[]) => {
    const before = recorder.received.length;
    const run = await runCli(['run', file, ...args], { env, cwd: tmp.dir });
    expect({ code: run.code, errors: run.stderr.match(/^reqflow: .*/gm) }).toEqual({ code: 0, errors: null });
    return recorder.received.slice(before)[0];
  };
  const literal = '&pe={{$processEnv%20SECRETX}}&u={{$uuid}}&r={{login.response.body.id}}';
  const fromCli = await sent(['-e', 'api.host=api.example', '-e', 'tenant.id=t1']);
  expect([fromCli?.url, fromCli?.headers['x-tenant']]).toEqual([`/users?h=api.example&t=t1${literal}`, 't1']);
  tmp.write('out-dotted/.profiles.json', JSON.stringify([{ name: 'default', variables: { 'api.host': 'p.example', 'tenant.id': 't2' } }]));
  expect((await sent([]))?.url).toBe(`/users?h=p.example&t=t2${literal}`);
  expect(JSON.stringify(recorder.received)).not.toContain('env-secret-4711');
});

test('a method or header name that is not an HTTP token is exit 2 naming the request; nothing is written', async () => {
  const elsewhere = `GET ${recorder.url}/elsewhere?`;
  const cases: Array<[string, string[], RegExp]> = [
    ['curl-method', ['curl', `curl -X '${elsewhere}' http://127.0.0.1:9/real`], /its method "GET HTTP:.*" is not an HTTP method/],
    ['curl-header', ['curl', `curl -H '< /etc/passwd: x' ${recorder.url}/h`], /its header name "< \/etc\/passwd" is not an HTTP header name/],
    ['postman-method', ['postman', tmp.write('m.json', collection([{ name: 'm', request: { method: elsewhere, url: `${recorder.url}/m` } }]))], /request "m": its method/],
    ['postman-header', ['postman', tmp.write('hn.json', collection([{ name: 'hn', request: { method: 'GET', url: `${recorder.url}/m`, header: [{ key: '# @note', value: 'x' }] } }]))], /request "hn": its header name "# @note"/],
    ['har-method', ['har', tmp.write('m.har', JSON.stringify({ log: { entries: [{ request: { method: elsewhere, url: `${recorder.url}/m`, headers: [] } }] } }))], /its method/],
    ['har-header', ['har', tmp.write('hn.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: `${recorder.url}/m`, headers: [{ name: '> {%', value: 'y' }] } }] } }))], /its header name "> \{%"/],
    ['openapi-header', ['openapi', tmp.write('hn.openapi.json', JSON.stringify({ openapi: '3.0.3', info: { title: 'hn', version: '1' }, paths: { '/m': { get: { operationId: 'm', parameters: [{ name: '// x', in: 'header', example: 'y' }], responses: { 200: { description: 'ok' } } } } } }))], /its header name "\/\/ x"/],
  ];
  for (const [what, [kind, source], message] of cases) {
    const out = join(tmp.dir, `out-${what}`);
    const result = await runCli(['import', kind as string, source as string, '-o', out], { env });
    expect([what, result.code]).toEqual([what, 2]);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  }
});

test('a space in an imported URL is sent percent-encoded, never read as the request line\'s HTTP version (Postman, HAR, OpenAPI)', async () => {
  const postman = tmp.write('sp.json', collection([{ name: 'sp', request: { method: 'GET', url: `${recorder.url}/sp?q=a HTTP/2` } }]));
  const har = tmp.write('sp.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: `${recorder.url}/e HTTP/2`, headers: [] } }] } }));
  const spec = tmp.write('sp.openapi.json', JSON.stringify({ openapi: '3.0.3', info: { title: 'sp', version: '1' }, servers: [{ url: recorder.url }], paths: { '/sp HTTP/2': { get: { operationId: 'sp', responses: { 200: { description: 'ok' } } } } } }));
  expect((await importAndRun('postman', postman, join(tmp.dir, 'out-sp-postman'), 'sp.http'))[0]?.url).toBe('/sp?q=a%20HTTP/2');
  expect((await importAndRun('har', har, join(tmp.dir, 'out-sp-har'), 'sp.http'))[0]?.url).toBe('/e%20HTTP/2');
  expect((await importAndRun('openapi', spec, join(tmp.dir, 'out-sp-openapi'), 'sp.http'))[0]?.url).toBe('/sp%20HTTP/2');
});

test('a body of 200,000 lines imports (no stack overflow) and is sent as it is', async () => {
  const text = Array(200000).fill('a').join('\n');
  const source = tmp.write('big.json', collection([{ name: 'big', request: { method: 'POST', url: `${recorder.url}/big`, body: { mode: 'raw', raw: text } } }]));
  const sent = await importAndRun('postman', source, join(tmp.dir, 'out-big'), 'big.http');
  expect(sent[0]?.body).toBe(text);
});

test('tiny OpenAPI documents that expand enormously end in seconds: a broad $ref schema gets a shallower example, a YAML alias bomb is exit 2', async () => {
  const N = 6;
  const schemas = Object.fromEntries(Array.from({ length: N }, (_, i) => [`S${i}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`p${j}`, i < N - 1 ? { $ref: `#/components/schemas/S${i + 1}` } : { type: 'string' }])) }]));
  const broad = tmp.write('broad.json', JSON.stringify({ openapi: '3.0.3', info: { title: 'broad', version: '1' }, servers: [{ url: recorder.url }], paths: { '/x': { post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } }, responses: { 200: { description: 'ok' } } } } }, components: { schemas } }));
  // No clock: the budget's warning says the shallower example was made (it took 12 s and 430 MB before, then exit 70).
  const imported = await runCli(['import', 'openapi', broad, '-o', join(tmp.dir, 'out-broad')], { env, timeoutMs: 60_000 });
  expect(imported.code).toBe(0);
  expect(imported.stderr).toMatch(/the example of the body of x stops \d levels deep/);
  const lol = `[${Array(10).fill('"lol"').join(', ')}]`;
  const bomb = ['openapi: 3.0.3', "info: {title: b, version: '1'}", 'paths: {}', 'x-bomb:', `  l0: &l0 ${lol}`, ...Array.from({ length: 6 }, (_, i) => `  l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`)].join('\n');
  // Refused before anything expands the aliases (43 s before): the message is the proof, not a clock.
  const refused = await runCli(['import', 'openapi', tmp.write('bomb.yaml', bomb), '-o', join(tmp.dir, 'out-bomb')], { env, timeoutMs: 60_000 });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/bomb\.yaml: its YAML aliases \(\*name\) expand to more than 1,000,000 values/);
}, 150_000);

test('a wide array in a schema (minItems) counts its items against the 10,000-value budget: a shallower example, or none, with a warning', async () => {
  const body = (operationId: string, schema: unknown) => ({ post: { operationId, requestBody: { content: { 'application/json': { schema } } }, responses: { 200: { description: 'ok' } } } });
  const spec = tmp.write(
    'wide.json',
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'wide', version: '1' },
      servers: [{ url: recorder.url }],
      paths: {
        // A thousand items of a thousand: a million values (and a third level, a billion, never ended).
        '/w': body('w', { type: 'array', minItems: 1000, items: { type: 'array', minItems: 1000, items: { type: 'string' } } }),
        '/f': body('f', { type: 'array', minItems: 100_000, items: { type: 'string' } }),
      },
    }),
  );
  const sent = await importAndRun('openapi', spec, join(tmp.dir, 'out-wide'), 'wide.http');
  const imported = readFileSync(join(tmp.dir, 'out-wide', 'wide.http'), 'utf8');
  expect(imported.length).toBeLessThan(20_000);
  const w = sent.find((r) => r.url === '/w');
  expect(JSON.parse(w?.body ?? '')).toEqual(Array(1000).fill([]));
  expect(JSON.parse(sent.find((r) => r.url === '/f')?.body ?? '')).toEqual({});
  const warned = await runCli(['import', 'openapi', spec, '-o', join(tmp.dir, 'out-wide-2')], { env, cwd: tmp.dir });
  expect(warned.stderr.split('\n')).toEqual([
    'reqflow: warning: the example of the body of w stops 1 level deep: its schema expands past 10,000 values below that — write an example in the spec',
    'reqflow: warning: no example was made for the body of f: its schema expands past 10,000 values at any depth — write an example in the spec',
    '',
  ]);
}, 60_000);

test('a large real spec without aliases (3,500 paths of 100 properties, JSON or YAML) imports: the alias guard counts only what aliases could add', async () => {
  const paths = 3500;
  const operation = (i: number) => ({ operationId: `op${i}`, requestBody: { content: { 'application/json': { schema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`f${j}`, { type: 'string', example: `v${j}` }])) } } } }, responses: { 200: { description: 'ok' } } });
  // Over a million values; text with an `&` as an anchor would be in YAML (JSON has none), and a `&` in a URL.
  const spec = (description: string) => ({ openapi: '3.0.3', info: { title: 'big', version: '1', description }, servers: [{ url: recorder.url }], paths: Object.fromEntries(Array.from({ length: paths }, (_, i) => [`/r${i}`, { post: operation(i) }])) });
  // The same spec as block YAML (no anchors): a mapping a line, JSON strings as YAML's double-quoted scalars.
  const yamlOf = (value: unknown, indent: string): string[] => Object.entries(value as object).flatMap(([key, item]) => (typeof item === 'object' && item !== null ? [`${indent}${JSON.stringify(key)}:`, ...(Array.isArray(item) ? item.flatMap((element) => yamlOf(element, `${indent}    `).map((line, k) => (k === 0 ? `${indent}  - ${line.trimStart()}` : line))) : yamlOf(item, `${indent}  `))] : [`${indent}${JSON.stringify(key)}: ${JSON.stringify(item)}`]));
  for (const [name, text] of [['big.openapi.json', JSON.stringify(spec('R &D'))], ['big.openapi.yaml', yamlOf(spec('R &D, see https://example.com/?a=1&b=2'), '').join('\n')]] as const) {
    const out = join(tmp.dir, `out-${name}`);
    // Some 5 s of CPU each on a quiet machine: a busy one is given time (no clock is read).
    const imported = await runCli(['import', 'openapi', tmp.write(name, text), '-o', out], { env, timeoutMs: 120_000 });
    expect({ name, code: imported.code, stderr: imported.stderr }).toEqual({ name, code: 0, stderr: '' });
    expect(readFileSync(join(out, 'big.http'), 'utf8').match(/^### /gm)).toHaveLength(paths);
    const before = recorder.received.length;
    expect((await runCli(['run', join(out, 'big.http'), '--env', 'dev', '-n', `op${paths - 1}`], { env, cwd: tmp.dir, timeoutMs: 60_000 })).code).toBe(0);
    const sent = recorder.received.slice(before);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`POST /r${paths - 1}`]);
    expect(JSON.parse(sent[0]?.body.toString() ?? '')).toMatchObject({ f0: 'v0', f99: 'v99' });
  }
}, 400_000);
