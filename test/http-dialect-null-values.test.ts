/**
 * A run value a script set to null — `client.global.set(name, null)` (what `valueOf` gives for a
 * header the response lacks), httpyac's `exports.name = null` — sent as httpyac 6.16.7 sends it
 * (docs/http-dialect.md, "Values a script sets to null"): `null` inside other text, nothing for a
 * header value or a body that is the template alone. reqflow sent the text `null` everywhere.
 */
import { describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const runs = recordedRuns('reqflow-null-values-');
const { tmp, reqflow } = runs;

/** The headers the file decides (not the client's own: user-agent, host, connection; nor X-Client, from the fixtures' profile). */
function decided(headers: Record<string, unknown>): Record<string, unknown> {
  const { 'user-agent': _ua, host: _host, connection: _connection, 'accept-encoding': _encoding, 'x-client': _profile, accept: _accept, ...rest } = headers;
  return rest;
}

describe('null: what httpyac sends', () => {
  test('null-values.http: a header value or body that is the template alone is sent empty, the text null anywhere else (URL, inside a header, a JSON body)', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'null-values.http'));
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    const sent = result.got.map((r) => ({ line: `${r.method} ${r.url}`, headers: decided(r.headers), body: r.body.toString('latin1') }));
    // Recorded from httpyac 6.16.7 (`httpyac send null-values.http -a --var host=…`), header order aside.
    expect(sent).toEqual([
      { line: 'GET /null/lookup', headers: {}, body: '' },
      { line: 'POST /null/whole?q=null', headers: { 'content-type': 'text/plain', authorization: '', 'x-embedded': 'Bearer null', 'content-length': '0' }, body: '' },
      { line: 'POST /null/json', headers: { 'content-type': 'application/json', 'content-length': '16' }, body: '{"parent": null}' },
      { line: 'GET /null/exported?c=null', headers: { 'x-cursor': '' }, body: '' },
    ]);
  });

  test('-e sets the name instead: its value is sent', async () => {
    const file = tmp.write('given.http', `GET {{host}}/set\n\n> {%\n  client.global.set("token", null);\n%}\n\n###\nGET {{host}}/use\nAuthorization: {{token}}\n`);
    const result = await reqflow(file, ['-e', 'token=given']);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/set', undefined],
      ['/use', 'given'],
    ]);
  });

  test('a null is a value of the run only: a later run finds no such global (exit 3, nothing sent), where the text it replaced was kept before', async () => {
    const set = tmp.write('kept/set.http', `GET {{host}}/kept?v={{value}}\n\n> {%\n  client.global.set("token", client.global.get("token") === null ? "first" : null);\n%}\n`);
    const use = tmp.write('kept/use.http', 'GET {{host}}/kept/use\nAuthorization: {{token}}\n');
    expect((await reqflow(set, ['-e', 'value=1'])).code).toBe(0);
    const kept = await reqflow(use);
    expect(kept.code).toBe(0);
    expect(kept.got[0]?.headers.authorization).toBe('first');
    expect((await reqflow(set, ['-e', 'value=2'])).code).toBe(0);
    const gone = await reqflow(use);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/unknown variable "token"/);
    expect(gone.got).toEqual([]);
  });
});
