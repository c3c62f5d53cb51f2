/**
 * A file variable used above its definition (docs/http-dialect.md, "File variables"): VS Code reads
 * the `@name = value` lines of the whole file, httpyac runs every global region before a request,
 * JetBrains' in-place variables are the file's — so a request above the definition sends its value,
 * the file's last definition, as httpyac 6.16.7 sent it to the same recorder. It was exit 3,
 * "unknown variable" (two real files: `@endpoint = …` and `@user_agent = …` at their end).
 */
import { describe, expect, test } from '@jest/globals';
import { runCli } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const runs = recordedRuns('reqflow-later-variables-');
const { tmp, reqflow } = runs;

describe('a file variable defined below the request that uses it', () => {
  test('the request sends the file\'s last definition; a definition above still wins from there on (httpyac 6.16.7: /first?x=late&y=why, /a?u=two)', async () => {
    const file = tmp.write('later.http', 'GET {{host}}/first?x={{x}}&y={{y}}\n\n###\n@x = early\n\n###\nGET {{host}}/second?y={{y}}\n\n###\n@x = late\n@y = why\n\n###\nGET {{host}}/a?u={{u}}\n\n###\n@u = one\n\n###\n@u = two\n');
    const result = await reqflow(file);
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/first?x=late&y=why', '/second?y=why', '/a?u=two']);
  });

  test('its value may hold templates, resolved for the request; --dry-run prints the same request', async () => {
    const file = tmp.write('endpoint.rest', 'POST {{endpoint}}\nUser-Agent: {{user_agent}}\nContent-Type: application/json\n\n{"a": 1}\n\n###\n\n@endpoint = {{host}}/graphql\n@user_agent = Mozilla/5.0 (X11)\n');
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.method, r.url, r.headers['user-agent'], r.body.toString('utf8')])).toEqual([['POST', '/graphql', 'Mozilla/5.0 (X11)', '{"a": 1}']]);
    const dry = await runCli(['run', file, '-e', `host=${runs.recorder.url}`, '--dry-run'], { env: runs.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`POST ${runs.recorder.url}/graphql`);
    expect(dry.stdout).toContain('User-Agent: Mozilla/5.0 (X11)');
  });

  test('a name the file defines nowhere is still exit 3 naming it, nothing sent', async () => {
    const file = tmp.write('nowhere.http', 'GET {{host}}/never?v={{missing}}\n\n###\n@other = 1\n');
    const result = await reqflow(file);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('nowhere.http:1: unknown variable "missing"');
    expect(result.got).toEqual([]);
  });

  test('-e, the environment and the rest still come first: the definition below is the last source', async () => {
    const file = tmp.write('order.http', 'GET {{host}}/o?v={{v}}\n\n###\n@v = below\n');
    const result = await reqflow(file, ['-e', 'v=cli']);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/o?v=cli']);
  });
});
