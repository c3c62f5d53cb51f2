/**
 * A block of JSON with no request line after a `###` (a response pasted into the file, without its
 * status line): no tool sends it — httpyac 6.16.7 fails that block alone ("Invalid URL: {") and sends
 * the others, VS Code and JetBrains run each request by itself. reqflow skips it with a warning
 * naming its line and runs the file's requests; it refused the whole file, `invalid method "{"` (two
 * real files of the fourth corpus, `oauth.http` and `auth.rest`).
 */
import { describe, expect, test } from '@jest/globals';
import { recordedRuns } from './helpers/recorded-runs.js';

const { tmp, reqflow } = recordedRuns('reqflow-pasted-json-');

describe('a block of JSON where a request line would be', () => {
  test('is skipped with a warning naming its line; the requests around it are sent as written', async () => {
    const file = tmp.write('auth.rest', 'POST {{host}}/auth/refresh\nContent-Type: application/json\n\n{"refresh": "r"}\n\n###\n\n{\n  "access_token": "a",\n  "refresh_token": "r"\n}\n\n###\nGET {{host}}/users/me\n\n###\n[1, 2]\n');
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('auth.rest:8: a block of JSON with no request line is skipped (a pasted response?)');
    expect(result.stderr).toContain('auth.rest:17: a block of JSON with no request line is skipped');
    expect(result.got.map((r) => [r.method, r.url, r.body.toString('utf8')])).toEqual([
      ['POST', '/auth/refresh', '{"refresh": "r"}'],
      ['GET', '/users/me', ''],
    ]);
  });

  test('a file of such blocks alone has no request: exit 2, nothing sent', async () => {
    const file = tmp.write('only.http', '# a sample\n\n{"a": 1}\n');
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('only.http:3: a block of JSON with no request line is skipped');
    expect(result.stderr).toContain('no requests found');
    expect(result.got).toEqual([]);
  });

  test('a line that is not JSON where the request line should be is still refused naming it', async () => {
    const file = tmp.write('bad.http', 'GET {{host}}/a\n\n###\n"access_token": "x"\n');
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('bad.http:4:1: invalid method "\\"access_token\\":"');
    expect(result.got).toEqual([]);
  });
});
