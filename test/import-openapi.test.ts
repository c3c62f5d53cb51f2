/**
 * `reqflow import openapi`: Swagger 2.0, OpenAPI 3.0 and 3.1 specs (with $refs across
 * components and files) become .http files whose every request runs with `--env dev`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMPORT_FIXTURES, runImport, runImported } from './helpers/import-fixture.js';
import { tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir('reqflow-import-openapi-');
beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** Imports a spec, then runs every file it wrote; returns what the server received, by operation path. */
async function importAndRunAll(spec: string, extra: string[] = []) {
  const out = join(tmp.dir, spec.replace(/\W+/g, '-'));
  const imported = await runImport(['openapi', join(IMPORT_FIXTURES, 'openapi', spec), '-o', out], tmp.dir);
  expect(imported.code).toBe(0);
  const before = server.received.length;
  for (const file of readdirSync(out).filter((f) => f.endsWith('.http')).sort()) {
    const run = await runImported(join(out, file), out, ['--env', 'dev', '-e', `baseUrl=${server.url}`, ...extra]);
    expect({ file, code: run.code, stderr: run.stderr.replace(/^HTTP\/1\.1 .*\n/gm, '') }).toEqual({ file, code: 0, stderr: '' });
  }
  const received = server.received.slice(before);
  const find = (method: string, path: string) => {
    const found = received.find((r) => r.method === method && r.url.split('?')[0] === path);
    if (!found) throw new Error(`no ${method} ${path}: got ${received.map((r) => `${r.method} ${r.url}`).join(', ')}`);
    return found;
  };
  return { out, imported, received, find };
}

describe('Swagger 2.0 (petstore)', () => {
  test('a spec that is missing or a folder: one line saying so, exit 2 (not "not valid YAML or JSON")', async () => {
    const missing = await runImport(['openapi', join(tmp.dir, 'missing.yaml')], tmp.dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^reqflow: no such file: .*missing\.yaml\n$/);
    const folder = await runImport(['openapi', tmp.dir], tmp.dir);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/^reqflow: cannot read .*: it is a folder, not a file\n$/);
  });

  test('one file per tag, every operation; body params, formData (urlencoded and multipart), apiKey and oauth2 implicit', async () => {
    const { out, imported, received, find } = await importAndRunAll('petstore-swagger2.json', ['-e', 'token=tok', '-e', 'apiKey=k-1']);
    expect(readdirSync(out).filter((f) => f !== '.state').sort()).toEqual(['http-client.env.json', 'http-client.private.env.json', 'pet.http', 'store.http', 'user.http']);
    expect(received).toHaveLength(9);
    expect(imported.stderr).toContain('security scheme "petstore_auth": its flows (implicit) are not ones reqflow runs');
    expect(imported.stderr.match(/petstore_auth/g)).toHaveLength(1);
    const add = find('POST', '/pet');
    expect(add.headers.authorization).toBe('Bearer tok');
    expect(JSON.parse(add.body.toString())).toMatchObject({ name: 'doggie', photoUrls: ['string'], status: 'available' });
    expect(find('GET', '/pet/0').headers.api_key).toBe('k-1');
    expect(find('GET', '/pet/findByStatus').url).toBe('/pet/findByStatus?status=available');
    const form = find('POST', '/pet/0');
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.body.toString()).toBe('name=doggie%20%26%20co&status=string');
    const upload = find('POST', '/pet/0/uploadImage');
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=reqflow-import-[0-9a-f]{24}$/);
    expect(upload.body.toString()).toContain('Content-Disposition: form-data; name="file"; filename="file.bin"');
    expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8')).dev.baseUrl).toBe('https://petstore.swagger.io/v2');
  });
});

describe('OpenAPI 3.0 (bookshop)', () => {
  test('$refs to components and to another file, server variables, bearer and apiKey-in-query, examples', async () => {
    const { out, imported, find } = await importAndRunAll('bookshop-3.0.yaml', ['-e', 'token=jwt-1', '-e', 'apiKeyQuery=q-1']);
    expect(imported.stderr).toContain('the spec lists 2 servers; baseUrl is the first');
    expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8')).dev).toMatchObject({ region: 'eu', baseUrl: 'https://{{region}}.api.bookshop.example/v2', isbn: '978-0262033848' });
    const list = find('GET', '/books');
    expect(list.url).toBe('/books?q=structure%20and%20interpretation&limit=20&sort=title');
    expect(list.headers['x-request-id']).toBe('4f1c2e7a-0d39-4a8e-9d0c-5b7e4e1f9a11');
    expect(list.headers.authorization).toBe('Bearer jwt-1');
    // From schemas/book.yaml: the example values; readOnly `id` left out.
    expect(JSON.parse(find('POST', '/books').body.toString())).toEqual({ isbn: '978-0262033848', title: 'Introduction to Algorithms', authors: [{ name: 'Thomas H. Cormen' }], published: '2019-08-24' });
    expect(find('GET', '/books/978-0262033848').url).toBe('/books/978-0262033848?api_key=q-1');
    expect(find('DELETE', '/books/978-0262033848').headers.authorization).toBeUndefined();
    expect(JSON.parse(find('POST', '/orders').body.toString())).toEqual({ isbn: '978-0262033848', quantity: 2, giftWrap: false });
    const note = find('POST', '/orders/1042/notes');
    expect(note.headers['content-type']).toBe('text/plain');
    expect(note.body.toString()).toBe('Please ring twice.');
  });
});

describe('OpenAPI 3.1 (notes)', () => {
  test('oauth2 flows become a profiles file for reqflow oauth login; basic auth, cookie parameters, 3.1 examples', async () => {
    const { out, find } = await importAndRunAll('notes-3.1.yaml', ['-e', 'token=t-1', '-e', 'username=ada', '-e', 'password=pw']);
    expect(JSON.parse(readFileSync(join(out, 'notes-3.1.profiles.json'), 'utf8'))).toEqual([
      { name: 'oauth', oauth: { clientId: '{{env.OAUTH_CLIENT_ID}}', authUrl: 'https://id.example.com/authorize', tokenUrl: 'https://id.example.com/token', scope: 'notes:read notes:write' } },
      { name: 'service', oauth: { clientId: '{{env.OAUTH_CLIENT_ID}}', clientSecret: '{{env.OAUTH_CLIENT_SECRET}}', grant: 'client_credentials', tokenUrl: 'https://id.example.com/token', scope: 'notes:export' } },
    ]);
    expect(readFileSync(join(out, 'notes-service.http'), 'utf8')).toContain('# OAuth 2.0 (oauth): reqflow oauth login --profiles notes-3.1.profiles.json -p oauth');
    expect(find('GET', '/notes').url).toBe('/notes?tag=work');
    expect(JSON.parse(find('POST', '/notes').body.toString())).toMatchObject({ text: 'Buy milk', tags: ['home'] });
    const attach = find('POST', '/notes/n-1/attachments');
    expect(attach.headers.authorization).toBe(`Basic ${Buffer.from('ada:pw').toString('base64')}`);
    expect(attach.headers.cookie).toBe('session=s-123');
    expect(attach.body.toString()).toContain('name="caption"\r\n\r\nWhiteboard photo\r\n');
    expect(find('GET', '/admin/export').headers.authorization).toBe('Bearer t-1');
  });
});

describe('OpenAPI 3.0 servers of a path item or an operation', () => {
  test('replace the spec\'s: each request goes to the server its operation names, its variables\' defaults written in', async () => {
    const spec = readFileSync(join(IMPORT_FIXTURES, 'openapi', 'servers-3.0.yaml'), 'utf8');
    const source = tmp.write('servers.yaml', spec.replaceAll('https://files.example.com', `${server.url}/files-host`).replaceAll('https://auth.example.com', `${server.url}/auth-host`));
    const out = join(tmp.dir, 'servers-out');
    const imported = await runImport(['openapi', source, '-o', out], tmp.dir);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(`operation listFiles lists 2 servers of its own: it is sent to the first, ${server.url}/files-host/uploads`);
    expect(readFileSync(join(out, 'auth.http'), 'utf8')).toContain(`POST ${server.url}/auth-host/oauth/token`);
    const before = server.received.length;
    for (const file of ['auth.http', 'files.http', 'pets.http']) {
      const run = await runImported(join(out, file), out, ['--env', 'dev', '-e', `baseUrl=${server.url}/api`]);
      expect({ file, code: run.code }).toEqual({ file, code: 0 });
    }
    expect(server.received.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /auth-host/oauth/token', 'GET /files-host/uploads/files', 'GET /api/pets']);
    expect(server.received[before]?.body.toString()).toBe('grant_type=client_credentials');
  });
});


describe('parameters as OpenAPI serializes them', () => {
  test('a query array exploded (form), a deepObject, Swagger 2.0 collectionFormat, and path values encoded as one segment', async () => {
    const spec = tmp.write('serialize/spec.yaml', `openapi: 3.0.3
info: { title: S, version: "1" }
servers: [{ url: http://127.0.0.1:1 }]
paths:
  /items/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string }, example: "a/b c" }
    get:
      operationId: find
      parameters:
        - { name: tags, in: query, required: true, schema: { type: array, items: { type: string } }, example: [x, y] }
        - { name: ids, in: query, required: true, explode: false, schema: { type: array, items: { type: integer } }, example: [1, 2] }
        - { name: filter, in: query, required: true, style: deepObject, schema: { type: object }, example: { a: 1 } }
        - { name: q, in: query, required: true, schema: { type: string }, example: "a&b c" }
      responses: { "200": { description: ok } }
`);
    const swagger = tmp.write('serialize/swagger.yaml', `swagger: "2.0"
info: { title: W, version: "1" }
host: 127.0.0.1:1
paths:
  /list:
    get:
      operationId: list
      parameters:
        - { name: tags, in: query, required: true, type: array, items: { type: string }, collectionFormat: multi, x-example: [x, y] }
        - { name: ids, in: query, required: true, type: array, items: { type: string }, collectionFormat: pipes, x-example: [p, q] }
      responses: { "200": { description: ok } }
`);
    const received: string[] = [];
    for (const source of [spec, swagger]) {
      const out = join(tmp.dir, 'serialize', `out-${received.length}`);
      expect((await runImport(['openapi', source, '-o', out], tmp.dir)).code).toBe(0);
      const before = server.received.length;
      for (const file of readdirSync(out).filter((name) => name.endsWith('.http'))) {
        expect((await runImported(join(out, file), out, ['--env', 'dev', '-e', `baseUrl=${server.url}`])).code).toBe(0);
      }
      received.push(...server.received.slice(before).map((r) => r.url));
    }
    // What an OpenAPI client (style form, explode true by default) sends for these examples.
    expect(received).toEqual(['/items/a%2Fb%20c?tags=x&tags=y&ids=1,2&filter[a]=1&q=a%26b%20c', '/list?tags=x&tags=y&ids=p|q']);
  });
});
