/**
 * What a request-file script prints cannot show a piece of a secret (docs/security.md, "What
 * scripts print"): the attacker is a request file (or a careless one) whose JetBrains, httpyac or
 * rest.nvim Lua script logs part of a token — a slice, the characters one by one, joined with
 * separators — or puts it in a test's message or a thrown error. Every run of 6 or more of a
 * secret's characters is masked there; what the rule does not cover (shorter pieces, a reversed
 * or re-encoded secret) is documented, and pinned here so that a change to it is a decision.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const TOKEN = 's3cr3t-T0ken-value-4242';
let recorder: Recorder;
const tmp = tempDir('reqflow-script-pieces-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  // A login that answers with the token, as a JetBrains script reads it.
  recorder = await startRecorder((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url === '/login' ? JSON.stringify({ session: TOKEN }) : '{}');
  });
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

async function run(name: string, text: string, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const file = tmp.write(name, text);
  const result = await runCli(['run', file, ...args], { env });
  return { code: result.code, output: `${result.stdout}\n${result.stderr}` };
}

/** Every run of 6 characters of the token, and of its letters and digits: none may be in the output. */
function expectNoPiece(output: string): void {
  const letters = TOKEN.replace(/[^\p{L}\p{N}]/gu, '');
  for (let at = 0; at + 6 <= TOKEN.length; at++) expect({ piece: TOKEN.slice(at, at + 6), found: output.includes(TOKEN.slice(at, at + 6)) }).toEqual({ piece: TOKEN.slice(at, at + 6), found: false });
  const shownLetters = output.replace(/[^\p{L}\p{N}]/gu, '');
  for (let at = 0; at + 6 <= letters.length; at++) expect({ spelled: letters.slice(at, at + 6), found: shownLetters.includes(letters.slice(at, at + 6)) }).toEqual({ spelled: letters.slice(at, at + 6), found: false });
}

describe('pieces of a secret in what scripts print are masked', () => {
  test("httpyac: console.log of a slice, split(''), join('-'), a test's message and a thrown error", async () => {
    const { code, output } = await run(
      'httpyac.http',
      `@token = ${TOKEN}\n{{\n  console.log("head", token.slice(0, 10));\n  console.log(token.split(''));\n  console.log([...token].join('-'));\n  console.log("tail " + token.slice(-8));\n  test("a check", () => { throw new Error("got " + token.slice(3, 12)); });\n}}\nGET ${recorder.url}/x\nAuthorization: Bearer {{token}}\n\n{{\n  throw new Error("after: " + token.slice(5, 15));\n}}\n`,
    );
    expect(code).not.toBe(0); // the last script threw
    expect(output).toContain('reqflow: log: head •••');
    expect(output).toContain('reqflow: log: ["•••"]');
    expect(output).toContain('reqflow: log: tail •••');
    expect(output).toMatch(/a check — got •••/);
    expect(output).toMatch(/Error: after: •••/);
    expectNoPiece(output);
  });

  test("JetBrains: a token from a response kept with client.global.set, then client.log of pieces and an assertion's message", async () => {
    const { output } = await run(
      'jetbrains.http',
      `POST ${recorder.url}/login\n\n> {%\n  const t = response.body.session;\n  client.global.set("auth_token", t);\n  client.log(t.substring(2, 11));\n  client.log(t.split("").join(" "));\n  client.test("t", () => client.assert(false, "was " + t.slice(12)));\n%}\n`,
      ['-o', 'raw'],
    );
    expect(output).toContain('reqflow: log: •••');
    expect(output).toMatch(/was •••/);
    expectNoPiece(output.replace(`{"session":"${TOKEN}"}`, '')); // the body itself is the response, shown as received
  });

  test("rest.nvim Lua: print of a substring of the response's token", async () => {
    const { output } = await run('lua.http', `POST ${recorder.url}/login\n\n# @lang=lua\n> {%\nlocal t = vim.json.decode(response.body).session\nclient.global.set("auth_token", t)\nprint(string.sub(t, 3, 14))\n%}\n`, ['-o', 'raw']);
    expect(output).toContain('reqflow: log: •••');
    expectNoPiece(output.replace(`{"session":"${TOKEN}"}`, ''));
  });

  test('httpyac {{@request hooks: a refusal quoting a name the hook set, and a pre-request script\'s failure, mask the pieces as its output does', async () => {
    const hook = (name: string, line: string) => run(name, `{{@request\n  ${line}\n}}\nGET ${recorder.url}/hook\n`, ['-e', `token=${TOKEN}`]);
    const property = await hook('hook-property.http', 'request[token.slice(0, 12)] = 1;');
    expect(property.code).toBe(2);
    expect(property.output).toContain("hook-property.http:1: httpyac's {{@request hook: it sets request.•••; reqflow cannot send that as httpyac would");
    expectNoPiece(property.output);
    const header = await hook('hook-header.http', 'request.headers[token.slice(0, 12)] = {};');
    expect(header.code).toBe(2);
    expect(header.output).toContain('header "•••" is not text');
    expectNoPiece(header.output);
    const thrown = await hook('hook-throws.http', 'throw new Error(token.slice(2, 14));');
    expect(thrown.code).toBe(2);
    expect(thrown.output).toMatch(/request hook failed: .*Error: •••/);
    expectNoPiece(thrown.output);
    expect(recorder.received.filter((r) => r.url === '/hook')).toEqual([]);
  });

  test('ordinary text beside a secret is kept: an auth scheme, short runs, words that share no 6 characters with it', async () => {
    const { output } = await run('ordinary.http', `@token = ${TOKEN}\n{{\n  console.log("Bearer tokens, http, 2024, s3cr and value");\n}}\nGET ${recorder.url}/x\nAuthorization: Bearer {{token}}\n`);
    expect(output).toContain('reqflow: log: Bearer tokens, http, 2024, s3cr and value');
  });

  test('not covered, as documented: a piece shorter than 6 characters, the secret reversed', async () => {
    const { output } = await run('uncovered.http', `@token = ${TOKEN}\n{{\n  console.log(token.slice(0, 5));\n  console.log([...token].reverse().join(''));\n}}\nGET ${recorder.url}/x\nAuthorization: Bearer {{token}}\n`);
    expect(output).toContain(`reqflow: log: ${TOKEN.slice(0, 5)}`);
    expect(output).toContain(`reqflow: log: ${[...TOKEN].reverse().join('')}`);
  });
});
