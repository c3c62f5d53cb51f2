/**
 * OpenAPI specs whose `$ref`s reach for more than the spec: a fan-out of references that expands
 * to billions of values in the parser library's validation and dereferencing (in the spec or
 * across its files), a YAML alias bomb in a file a `$ref` pulls in, a `$ref` to a URL, to
 * /etc/passwd or through a link out of the project. Each is exit 2 with one line naming the file
 * and what in it, at once; nothing is fetched; a large legitimate spec still imports.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-openapi-refs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
// Without the bound the child runs until it is killed (code null): the bound is this time-out, not a timing assertion.
const bounded = { env, timeoutMs: 20_000 };

beforeAll(async () => {
  recorder = await startRecorder();
  tmp.write('api/.git/HEAD', 'ref: refs/heads/main\n');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

function refused(result: { code: number | null; stderr: string }, message: RegExp): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
  expect(result.stderr).not.toMatch(/\n\s+at |node:internal/);
}

/** A spec whose one operation's body is `#/components/schemas/S0` (or `ref`). */
const spec = (schemas: Record<string, unknown>, ref = '#/components/schemas/S0'): string =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: recorder.url }], paths: { '/x': { post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: { $ref: ref } } } }, responses: { 200: { description: 'ok' } } } } }, components: { schemas } });

/** Schemas S0 … S(levels-1), each with `fan` properties that all refer to the next. */
const fanOut = (levels: number, fan: number, prefix = '#/components/schemas/'): Record<string, unknown> =>
  Object.fromEntries(Array.from({ length: levels }, (_, i) => [`S${i}`, i < levels - 1 ? { type: 'object', properties: Object.fromEntries(Array.from({ length: fan }, (_, j) => [`p${j}`, { $ref: `${prefix}S${i + 1}` }])) } : { type: 'string' }]));

test('a $ref fan-out eight levels deep (ten references a level) is exit 2 naming the spec and the schema, before the parser walks it', async () => {
  refused(await runCli(['import', 'openapi', tmp.write('api/fan.json', spec(fanOut(8, 10))), '-o', join(tmp.dir, 'out-fan')], bounded), /^reqflow: .*fan\.json: its \$refs expand to more than 5,000,000 values \(at #\/components\/schemas\/S\d\/properties\): not imported$/m);
  expect(existsSync(join(tmp.dir, 'out-fan'))).toBe(false);
  // The same across files: the schemas in a file of the project, each referring to the next there.
  tmp.write('api/schemas.json', JSON.stringify(fanOut(9, 20, '#/')));
  refused(await runCli(['import', 'openapi', tmp.write('api/fan-files.yaml', spec({}, './schemas.json#/S0')), '-o', join(tmp.dir, 'out-fan-files')], bounded), /fan-files\.yaml: its \$refs expand to more than 5,000,000 values \(at \$ref #\/S\d in .*schemas\.json\)/);
  // `reqflow mock --from-openapi` reads a spec the same way.
  refused(await runCli(['mock', '--from-openapi', join(tmp.dir, 'api/fan.json'), '--port', '0'], bounded), /fan\.json: not a readable OpenAPI document: its \$refs expand to more than 5,000,000 values/);
});

test('a legitimate large spec (400 schemas referring to others a few levels deep, some in loops; 800 operations) imports', async () => {
  const schemas = Object.fromEntries(
    Array.from({ length: 400 }, (_, i) => [
      `S${i}`,
      {
        type: 'object',
        description: 'R &D owns it; see https://example.com/?a=1&b=2',
        properties: {
          id: { type: 'string', example: `id-${i}` },
          ...Object.fromEntries(Array.from({ length: 12 }, (_, j) => [`f${j}`, { type: 'string', description: `field ${j}` }])),
          // Four layers of 100: each refers to two of the layer below, and the bottom one back to its parent (a loop, as parent and child).
          ...(i < 300 ? { a: { $ref: `#/components/schemas/S${(i + 100 + (i % 7)) % 400}` }, b: { type: 'array', items: { $ref: `#/components/schemas/S${100 * Math.floor(i / 100) + 100 + ((i * 3) % 100)}` } } } : { parent: { $ref: `#/components/schemas/S${i - 100 - (i % 7)}` } }),
        },
      },
    ]),
  );
  const operations = Object.fromEntries(Array.from({ length: 800 }, (_, i) => [`/r${i}`, { post: { operationId: `op${i}`, tags: [`t${i % 10}`], requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/S${i % 400}` } } } }, responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/S${(i * 7) % 400}` } } } } } } }]));
  const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1' }, servers: [{ url: recorder.url }], paths: operations, components: { schemas } });
  const out = join(tmp.dir, 'out-legit');
  const imported = await runCli(['import', 'openapi', tmp.write('api/legit.json', text), '-o', out], { env, timeoutMs: 60_000 });
  expect(imported.stderr).not.toMatch(/^reqflow: (?!warning)/m);
  expect(imported.code).toBe(0);
  expect(readdirSync(out).filter((name) => name.endsWith('.http'))).toHaveLength(10);
}, 90_000);

test('a YAML alias bomb in a file a $ref pulls in is exit 2 naming that file, as in the spec itself', async () => {
  const lol = `[${Array(10).fill('"lol"').join(', ')}]`;
  tmp.write('api/shared/bomb.yaml', ['l0: &l0 ' + lol, ...Array.from({ length: 7 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`)].join('\n'));
  const source = tmp.write('api/uses-bomb.yaml', spec({ S0: { type: 'object', example: { $ref: './shared/bomb.yaml#/l7' } } }));
  refused(await runCli(['import', 'openapi', source, '-o', join(tmp.dir, 'out-bomb')], bounded), /^reqflow: .*uses-bomb\.yaml: \$ref to .*shared\/bomb\.yaml not read: its YAML aliases \(\*name\) expand to more than 1,000,000 values: not imported$/m);
  expect(existsSync(join(tmp.dir, 'out-bomb'))).toBe(false);
});

test('a $ref to a URL is exit 2 and fetches nothing; to /etc/passwd (a path or a file: URL) or through a link out of the project, exit 2 naming it', async () => {
  const before = recorder.received.length;
  const remote = tmp.write('api/remote.yaml', spec({ S0: { $ref: `${recorder.url}/schema.yaml#/S` } }));
  refused(await runCli(['import', 'openapi', remote, '-o', join(tmp.dir, 'out-remote')], bounded), /^reqflow: .*remote\.yaml: .*127\.0\.0\.1.*$/m);
  expect(recorder.received.length).toBe(before);
  symlinkSync('/etc', join(tmp.dir, 'api', 'etc-link'));
  for (const [name, ref] of [['abs.yaml', '/etc/passwd'], ['url.yaml', 'file:///etc/passwd'], ['link.yaml', './etc-link/passwd']] as const) {
    const source = tmp.write(`api/${name}`, spec({ S0: { type: 'string', example: { $ref: ref } } }));
    refused(await runCli(['import', 'openapi', source, '-o', join(tmp.dir, `out-${name}`)], bounded), /\$ref to \/etc\/passwd not read: outside the spec's project/);
  }
});
