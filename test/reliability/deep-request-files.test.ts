/**
 * Request files nested or repeated far past what anyone writes: variables that name each other
 * a thousand deep, a GraphQL query two thousand levels deep. Each is the documented exit code
 * and one line naming the file, never a stack overflow (exit 70); files that are merely long
 * (thousands of variables, continuation lines, global scripts) are read in linear time — a
 * quadratic one outlasts runCli's 20 s kill.
 */
import { afterAll, expect, test } from '@jest/globals';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';

const tmp = tempDir('reqflow-deep-files-');
afterAll(() => tmp.cleanup());

const run = (name: string, text: string, args: string[] = []): Promise<CliResult> =>
  runCli(['run', tmp.write(name, text), '--dry-run', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });

/** `@v0 = x`, `@v1 = {{v0}}`, …, and a request naming the last one. */
const chain = (n: number): string => `@v0 = x\n${Array.from({ length: n - 1 }, (_, i) => `@v${i + 1} = {{v${i}}}\n`).join('')}GET http://127.0.0.1:9/{{v${n - 1}}}\n`;

/** The whole stderr: the one error line, its hint, nothing else (no stack, no V8 dump). */
function expectOnly(result: CliResult, code: number, message: RegExp, hint: RegExp): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code, stderr: expect.stringMatching(new RegExp(`^reqflow: ${message.source}\\nhint: ${hint.source}.*\\n$`)) });
}

test('a file variable chain 1,000 deep: exit 3 naming where it is used and the limit, not a stack overflow', async () => {
  const result = await run('chain.http', chain(1000));
  expectOnly(result, 3, /\S*chain\.http:1001: variable "v999" in request "request-1" nests more than 100 variables deep \(through v999 → v998 → v997 → … → v900 → v899\)/, /.*at most 100 levels/);
});

test('a file variable chain 100 deep, the limit, resolves', async () => {
  const result = await run('chain100.http', chain(100));
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('GET http://127.0.0.1:9/x');
});

test('20,000 file variables in one block: read in linear time (each used to copy all the ones before it)', async () => {
  const text = `${Array.from({ length: 20_000 }, (_, i) => `@v${i} = ${i}\n`).join('')}GET http://127.0.0.1:9/{{v19999}}\n`;
  const result = await run('many.http', text);
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('GET http://127.0.0.1:9/19999');
});

test('a $shared chain 1,000 deep in an environment file: exit 2 naming the file and the value, not a stack overflow', async () => {
  const shared: Record<string, string> = { s0: 'x' };
  for (let i = 1; i < 1000; i++) shared[`s${i}`] = `{{$shared s${i - 1}}}`;
  tmp.write('shared/http-client.env.json', JSON.stringify({ $shared: shared, dev: { u: '{{$shared s999}}' } }));
  const result = await runCli(['run', tmp.write('shared/r.http', 'GET http://127.0.0.1:9/{{u}}\n'), '--env', 'dev', '--dry-run'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  expectOnly(result, 2, /\S*http-client\.env\.json: dev\.u: its \{\{\$shared …\}\} values nest more than 100 deep \(through \$shared s999 → .* → \$shared s899\)/, /.*at most 100 levels/);
});

/** `query { a { a { … b … } } }`: `levels` selection sets, the operation's own included. */
const deepQuery = (levels: number): string => `query { ${'a { '.repeat(levels - 1)}b${' }'.repeat(levels - 1)} }\n`;

test.each([
  ['GRAPHQL request line', 'GRAPHQL http://127.0.0.1:9/g\n\n', 3],
  ["httpyac's POST with a query body", 'POST http://127.0.0.1:9/g\nContent-Type: application/json\n\n', 4],
])('a GraphQL query nested 2,000 levels (%s): exit 2 naming the request and where, not a stack overflow', async (_form, head, line) => {
  const result = await run('deep-graphql.http', `${head}${deepQuery(2000)}`);
  expectOnly(result, 2, new RegExp(`\\S*deep-graphql\\.http:${line}:4007: the GraphQL body of request "request-1" is nested more than 1000 levels deep`), /.*at most 1000 levels/);
});

test('a GraphQL query nested 1,000 levels, the limit (an argument list is one), with brackets in a string, a block string and a comment, is sent', async () => {
  const text = `GRAPHQL http://127.0.0.1:9/g\n\n${deepQuery(999).replace('query {', 'query { # ((((\n').replace('b', 'b(x: "{[(", y: """ {{ \\""" [ """)')}`;
  const result = await run('deep-graphql-ok.http', text);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});

test('a target over 100,000 continuation lines (`    &b=2`): joined in linear time (each line tested all the text joined before it)', async () => {
  const result = await run('continued.http', `GET http://127.0.0.1:9/x?a=1\n${'    &b=2\n'.repeat(100_000)}`);
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain(`GET http://127.0.0.1:9/x?a=1${'&b=2'.repeat(100_000)}\n`);
});
