/**
 * `reqflow mock --from-openapi SPEC` and hostile or unusual specs (docs/mock.md): the spec (and
 * the mock file) are read within `--max-size` — 64 MiB unless told, as `reqflow import` reads
 * them, a file's size checked before a byte is read, a pipe counted as it arrives — and an
 * example's numbers are served as the spec writes them (`1.10`, a 64-bit id), not as a double
 * reads them. Against the built CLI, with real HTTP requests to the mock on 127.0.0.1.
 */
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { truncateSync } from 'node:fs';
import { BIN, runCli, runShell, tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';

const started: LiveCli[] = [];
let files: ReturnType<typeof tempDir>;

beforeEach(() => {
  files = tempDir('reqflow-mock-openapi-');
});

afterEach(async () => {
  for (const cli of started.splice(0)) {
    cli.kill('SIGKILL');
    await cli.done;
  }
  files.cleanup();
});

async function startMock(args: string[]): Promise<string> {
  const cli = startCli(['mock', ...args, '--port', '0', '--no-watch'], { cwd: files.dir, timeoutMs: 60_000 });
  started.push(cli);
  const [, url] = await cli.waitForStdout(/mock: listening on (http:\/\/127\.0\.0\.1:\d+) /, 30_000);
  return url as string;
}

const spec = (example: string, schema = '{type: object}'): string => `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /example:
    get:
      responses:
        "200": {description: ok, content: {application/json: {example: ${example}}}}
  /sampled:
    get:
      responses:
        "200": {description: ok, content: {application/json: {schema: ${schema}}}}
`;

test('an example\'s numbers are served as written (YAML and JSON specs); a schema\'s bounds still steer the sampler', async () => {
  files.write('spec.yaml', spec('{version: 1.10, id: 12345678901234567891, e: 1e3, n: 7}', '{type: number, minimum: 1.0}'));
  const url = await startMock(['--from-openapi', 'spec.yaml']);
  expect(await (await fetch(`${url}/example`)).text()).toBe('{"version":1.10,"id":12345678901234567891,"e":1e3,"n":7}');
  expect(await (await fetch(`${url}/sampled`)).text()).toBe('1');
  // A number alone is as written too: an example, a default the sampler takes (it was made a double).
  files.write('scalar.yaml', spec('1.10', '{type: integer, default: 12345678901234567891}'));
  const scalar = await startMock(['--from-openapi', 'scalar.yaml']);
  expect(await (await fetch(`${scalar}/example`)).text()).toBe('1.10');
  expect(await (await fetch(`${scalar}/sampled`)).text()).toBe('12345678901234567891');
  files.write(
    'spec.json',
    JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/j': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { examples: { one: { value: '@' } } } } } } } } } }).replace('"@"', '{"price": 2.50, "id": 98765432109876543210}'),
  );
  const json = await startMock(['--from-openapi', 'spec.json']);
  expect(await (await fetch(`${json}/j`)).text()).toBe('{"price":2.50,"id":98765432109876543210}');
});

test('--max-size: a spec or a mock file past it is exit 2 naming it and its size, before it is read', async () => {
  const text = spec('{a: 1}');
  files.write('spec.yaml', text);
  const size = Buffer.byteLength(text);
  const over = await runCli(['mock', '--from-openapi', 'spec.yaml', '--max-size', '100', '--port', '0'], { cwd: files.dir });
  expect({ code: over.code, stderr: over.stderr.trim().split('\n') }).toEqual({
    code: 2,
    stderr: [`reqflow: spec.yaml: not a readable OpenAPI document: it is ${size.toLocaleString('en')} bytes, over the mock limit of 100 bytes: not read`, `hint: raise it with --max-size BYTES (--max-size ${size}): a document takes several times its size in memory`],
  });
  // 64 MiB unless told: a sparse file of 65 MiB is refused by its size, never read.
  truncateSync(files.write('huge.yaml', ''), 65 * 1024 * 1024);
  const huge = await runCli(['mock', '--from-openapi', 'huge.yaml', '--port', '0'], { cwd: files.dir });
  expect([huge.code, huge.stderr.split('\n')[0]]).toEqual([2, 'reqflow: huge.yaml: not a readable OpenAPI document: it is 68,157,440 bytes, over the mock limit of 67,108,864 bytes: not read']);
  truncateSync(files.write('huge.mock.yaml', ''), 65 * 1024 * 1024);
  const hugeMock = await runCli(['mock', 'huge.mock.yaml', '--port', '0'], { cwd: files.dir });
  expect([hugeMock.code, hugeMock.stderr.split('\n')[0]]).toEqual([2, 'reqflow: huge.mock.yaml: it is 68,157,440 bytes, over the mock limit of 67,108,864 bytes: not read']);
  // A pipe has no size to check first: counted as it arrives.
  const piped = await runShell('/bin/sh', `yes '# a comment' | head -c 5000 | "${process.execPath}" "${BIN}" mock /dev/stdin --max-size 1000 --port 0`, { cwd: files.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  expect([piped.code, piped.stderr.split('\n')[0]]).toEqual([2, 'reqflow: /dev/stdin: more than 1,000 bytes arrived, over the mock limit of 1,000 bytes: not read']);
  for (const result of [over, huge, hugeMock, piped]) expect(result.stderr).not.toMatch(/\n\s+at /);
});

test('a spec nested 200,000 levels deep (or a file its $ref names) is refused as reqflow import refuses it: exit 2, one line naming it', async () => {
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  files.write('deep.json', `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x":${deep}}`);
  files.write('part.json', `{"S":{"type":"object","example":${deep}}}`);
  files.write('refs.yaml', spec('{a: 1}', "{$ref: './part.json#/S'}"));
  const expected = {
    'deep.json': 'reqflow: deep.json: not a readable OpenAPI document: nested more than 1000 levels deep: not read',
    'refs.yaml': `reqflow: refs.yaml: not a readable OpenAPI document: $ref to ${files.dir}/part.json not read: nested more than 1000 levels deep: not read`,
  };
  for (const [file, line] of Object.entries(expected)) {
    const mock = await runCli(['mock', '--from-openapi', file, '--port', '0', '--no-watch'], { cwd: files.dir });
    expect({ code: mock.code, stderr: mock.stderr }).toEqual({ code: 2, stderr: `${line}\n` });
  }
  // The words reqflow import says (src/import/source.ts's deepNestingWords, shared).
  const imported = await runCli(['import', 'openapi', 'refs.yaml', '-o', 'out'], { cwd: files.dir });
  expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 2, stderr: `reqflow: refs.yaml: $ref to ${files.dir}/part.json not read: nested more than 1000 levels deep: not imported\n` });
});

/** A spec whose one operation answers `status` with `content` (YAML flow text). */
const answering = (content: string, status = '200'): string => `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      responses:
        "${status}": {description: ok, content: ${content}}
`;

test('a body under a type other than JSON: text served as written, XML made from the schema as XML, an object or array example refused at start-up', async () => {
  const served = {
    'text.yaml': [answering('{text/plain: {example: "hello {id}"}}'), 'text/plain', 'hello {id}'],
    'number.yaml': [answering('{text/plain: {example: 1.10}}'), 'text/plain', '1.10'],
    'xml-text.yaml': [answering('{application/xml: {example: "<pet id=\\"7\\"/>"}}'), 'application/xml', '<pet id="7"/>'],
    'xml-schema.yaml': [answering('{application/xml: {schema: {type: object, xml: {name: pet}, properties: {id: {type: integer, example: 12345678901234567891}, w: {type: number, example: 1.10}}}}}', '201'), 'application/xml', '<pet><id>12345678901234567891</id><w>1.10</w></pet>'],
  };
  for (const [file, [text, type, body]] of Object.entries(served)) {
    files.write(file, text as string);
    const url = await startMock(['--from-openapi', file]);
    const response = await fetch(`${url}/pets/7`);
    expect([file, response.headers.get('content-type'), (await response.text()).replace(/>\s+</g, '><').trim()]).toEqual([file, type, body]);
  }
  const refused = {
    'xml-object.yaml': [answering('{application/xml: {example: {id: 7}}}'), 'reqflow: xml-object.yaml: GET /pets/{id} (getPet), response 200: its application/xml example is an object, which application/xml has no form for: not served'],
    'text-array.yaml': [answering('{text/csv: {example: [1, 2]}}', '202'), 'reqflow: text-array.yaml: GET /pets/{id} (getPet), response 202: its text/csv example is an array, which text/csv has no form for: not served'],
    'text-schema.yaml': [answering('{text/plain: {schema: {type: object, properties: {a: {type: string}}}}}'), 'reqflow: text-schema.yaml: GET /pets/{id} (getPet), response 200: its text/plain example is an object (made from its schema), which text/plain has no form for: not served'],
  };
  for (const [file, [text, line]] of Object.entries(refused)) {
    files.write(file, text as string);
    const mock = await runCli(['mock', '--from-openapi', file, '--port', '0', '--no-watch'], { cwd: files.dir });
    expect({ code: mock.code, stderr: mock.stderr.split('\n')[0] }).toEqual({ code: 2, stderr: line });
    expect(mock.stderr).toMatch(/^hint: write the example as the .* text to serve \(a string\), or give the response an application\/json example$/m);
    expect(mock.stdout).not.toContain('listening');
  }
});

/** How many values a JSON value holds (itself, and each one inside it). */
const valuesIn = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Object.values(value).reduce((sum: number, item) => sum + valuesIn(item), 0) : 1);

test('an example made from a schema stops at 10,000 values, as reqflow import stops it: served shallower, or without a body, with a warning naming the operation, status and type', async () => {
  // Ten properties each referring to the next schema, six deep: a million values (3 KB of spec).
  const N = 6;
  const schemas = Object.fromEntries(Array.from({ length: N }, (_, i) => [`S${i}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`p${j}`, i < N - 1 ? { $ref: `#/components/schemas/S${i + 1}` } : { type: 'string' }])) }]));
  const answer = (operationId: string, schema: unknown) => ({ get: { operationId, responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } });
  files.write(
    'hostile.json',
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/broad': answer('broad', { $ref: '#/components/schemas/S0' }),
        // Wide arrays: a thousand items of a thousand items; 100,000 items at the top, which no depth makes smaller.
        '/wide': answer('wide', { type: 'array', minItems: 1000, items: { type: 'array', minItems: 1000, items: { type: 'string' } } }),
        '/flat': answer('flat', { type: 'array', minItems: 100_000, items: { type: 'string' } }),
        '/fine': answer('fine', { type: 'array', minItems: 3, items: { type: 'object', properties: { id: { type: 'integer' } } } }),
      },
      components: { schemas },
    }),
  );
  const cli = startCli(['mock', '--from-openapi', 'hostile.json', '--port', '0', '--no-watch'], { cwd: files.dir, timeoutMs: 60_000 });
  started.push(cli);
  const [, url] = await cli.waitForStdout(/mock: listening on (http:\/\/127\.0\.0\.1:\d+) /, 30_000);
  expect(cli.stderr().split('\n')).toEqual([
    'reqflow: warning: hostile.json: the example of GET /broad (broad), response 200, application/json stops 3 levels deep: its schema expands past 10,000 values below that — write an example in the spec',
    'reqflow: warning: hostile.json: the example of GET /wide (wide), response 200, application/json stops 1 level deep: its schema expands past 10,000 values below that — write an example in the spec',
    'reqflow: warning: hostile.json: no example was made for GET /flat (flat), response 200, application/json: its schema expands past 10,000 values at any depth — write an example in the spec',
    '',
  ]);
  const broad = await fetch(`${url}/broad`);
  const broadBody = (await broad.json()) as Record<string, Record<string, unknown>>;
  expect(valuesIn(broadBody)).toBeLessThanOrEqual(10_000);
  expect(Object.keys(broadBody.p9?.p9 ?? {})).toHaveLength(10);
  const wide = (await (await fetch(`${url}/wide`)).json()) as unknown[];
  expect([wide.length, valuesIn(wide)]).toEqual([1000, 1001]);
  // Its status, and no body: no example could be made within the budget.
  const flat = await fetch(`${url}/flat`);
  expect([flat.status, await flat.text()]).toEqual([200, '']);
  // A schema within the budget is made whole, as before.
  expect(await (await fetch(`${url}/fine`)).json()).toEqual([{ id: 0 }, { id: 0 }, { id: 0 }]);
}, 90_000);
