import { describe, expect, test } from '@jest/globals';
import { BUILTIN_PLUGINS } from '../src/pipeline/builtins.js';
import { PluginRegistry } from '../src/core/registry.js';
import { parseRequestFile } from '../src/pipeline/parse-file.js';
import type { ReqflowError } from '../src/core/errors/index.js';
import { tempDir } from './helpers/cli.js';

const registry = new PluginRegistry(BUILTIN_PLUGINS);

async function parseFile(name: string, text: string) {
  const tmp = tempDir();
  try {
    return await parseRequestFile(tmp.write(name, text), registry);
  } finally {
    tmp.cleanup();
  }
}

async function parseFailure(name: string, text: string): Promise<ReqflowError> {
  try {
    await parseFile(name, text);
  } catch (error) {
    return error as ReqflowError;
  }
  throw new Error('expected an error');
}

describe('YAML and JSON request files', () => {
  test('one YAML request; object bodies are sent as JSON', async () => {
    const [spec] = await parseFile('one.yaml', 'name: create\nmethod: post\nurl: http://x.test/items\nheaders:\n  X-One: 1\nbody:\n  a: [1, 2]\nfilter: id\nstreaming: true\n');
    expect(spec).toMatchObject({ name: 'create', method: 'POST', url: 'http://x.test/items', headers: { 'X-One': '1', 'Content-Type': 'application/json' }, annotations: { filter: 'id', streaming: 'true' } });
    expect(JSON.parse(String(spec?.body ?? ''))).toEqual({ a: [1, 2] });
  });

  test('a YAML list and a JSON {requests: [...]} with tls, auth, protocol and GraphQL variables', async () => {
    const yaml = await parseFile('list.yml', '- url: http://x.test/a\n- url: http://x.test/b\n  method: DELETE\n');
    expect(yaml.map((s) => [s.name, s.method])).toEqual([['request-1', 'GET'], ['request-2', 'DELETE']]);
    const json = await parseFile('r.json', JSON.stringify({ requests: [{ name: 'q', url: 'http://x.test/graphql', protocol: 'graphql', auth: 'bearer', body: '{ me { id } }', variables: { id: 1 }, tls: { caFile: 'ca.pem', insecureSkipVerify: false } }] }));
    expect(json[0]).toMatchObject({ name: 'q', body: '{ me { id } }', annotations: { protocol: 'graphql', auth: 'bearer' }, graphqlVariables: { id: 1 }, tls: { caFile: 'ca.pem', insecureSkipVerify: false } });
    expect(json[0]?.headers).toEqual({});
  });

  test('errors name the file, the line and column or the field', async () => {
    expect((await parseFailure('bad.json', '{\n  "url": "http://x",\n  oops\n}')).message).toMatch(/bad\.json:3:3: invalid JSON/);
    expect((await parseFailure('bad.yaml', 'url: [unclosed\nmethod: GET\n')).message).toMatch(/bad\.yaml:\d+:\d+: invalid YAML/);
    expect((await parseFailure('nourl.json', '[{"name": "x"}]')).message).toMatch(/nourl\.json: requests\[0\]\.url: expected a URL string/);
    expect((await parseFailure('field.yaml', 'url: http://x\nheadrs: {}\n')).message).toMatch(/field\.yaml: headrs: unknown field/);
    expect((await parseFailure('tls.json', '{"url": "http://x", "tls": {"caFile": 3}}')).message).toMatch(/tls\.caFile: expected a string/);
    expect((await parseFailure('empty.yaml', '')).message).toMatch(/empty\.yaml:1:1: empty file/);
    const error = await parseFailure('empty.json', '   ');
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/empty file/);
  });

  test('a tls field reqflow does not know (a typo, __proto__) is exit 2 naming it: the setting was left unset, unsaid', async () => {
    const typo = await parseFailure('typo.yaml', 'url: https://x\ntls:\n  caFlie: ./ca.pem\n');
    expect([typo.exitCode, typo.message]).toEqual([2, expect.stringMatching(/typo\.yaml: tls\.caFlie: unknown field$/)]);
    expect(typo.hint).toBe('known fields: certFile, keyFile, caFile, pfxFile, passphrase, insecureSkipVerify');
    expect((await parseFailure('proto.json', '{"url": "https://x", "tls": {"__proto__": {"insecureSkipVerify": true}}}')).message).toMatch(/proto\.json: tls\.__proto__: unknown field$/);
    expect((await parseFailure('list.json', '{"requests": [{"url": "https://x", "tls": {"cafile": "a"}}]}')).message).toMatch(/list\.json: requests\[0\]\.tls\.cafile: unknown field$/);
  });

  test('an empty .http file has no requests (exit 2)', async () => {
    const error = await parseFailure('e.http', '\n\n');
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/no requests found/);
  });
});
