/**
 * GraphQL variables go out with their numbers as written, in every form a file writes them:
 * `# @variables`, the JetBrains GRAPHQL variables paragraph, a YAML or JSON request file's
 * `variables`, and a value put in by a template. `12345678901234567890` was rounded to …000 and
 * `1e400` became `null`. Over the WebSocket transport (whose library writes JSON itself) such a
 * number is refused, never rounded.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { answerGraphqlOk, startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-graphql-exact-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder(answerGraphqlOk);
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (file: string, ...args: string[]) => runCli(['run', file, '-o', 'raw', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
const sentVariables = (): string => /"variables":(\{.*\})\}$/.exec(server.received.at(-1)?.body.toString('utf8') ?? '')?.[1] ?? '';

describe('GraphQL variables are sent with their numbers as written', () => {
  test.each([
    ['annotation.http', `# @protocol graphql\n# @variables {"n": 12345678901234567890, "f": 1e400, "d": 1.10, "small": 7}\nPOST URL/graphql\n\nquery Q($n: ID) { a(n: $n) }\n`],
    ['paragraph.http', `GRAPHQL URL/graphql\n\nquery Q($n: ID) { a(n: $n) }\n\n{"n": 12345678901234567890, "f": 1e400, "d": 1.10, "small": 7}\n`],
    // js-yaml alone reads 1e400 as text (its float pattern takes no number a double cannot hold); YAML's core schema, and reqflow, a number.
    ['file.yaml', `protocol: graphql\nmethod: POST\nurl: URL/graphql\nbody: "query Q($n: ID) { a(n: $n) }"\nvariables:\n  n: 12345678901234567890\n  f: 1e400\n  d: 1.10\n  small: 7\n`],
    ['file.json', `{"protocol": "graphql", "method": "POST", "url": "URL/graphql", "body": "query Q($n: ID) { a(n: $n) }", "variables": {"n": 12345678901234567890, "f": 1e400, "d": 1.10, "small": 7}}`],
  ])('%s', async (name, text) => {
    const result = await run(tmp.write(name, text.replaceAll('URL', server.url)));
    expect(result.code).toBe(0);
    expect(sentVariables()).toBe('{"n":12345678901234567890,"f":1e400,"d":1.10,"small":7}');
  });

  test('a value a template puts in: as the value writes it', async () => {
    const result = await run(tmp.write('template.http', `# @protocol graphql\n# @variables {"n": {{n}}}\nPOST ${server.url}/graphql\n\nquery Q($n: Float) { a(n: $n) }\n`), '-e', 'n=1e999');
    expect(result.code).toBe(0);
    expect(sentVariables()).toBe('{"n":1e999}');
  });

  test('over the WebSocket transport such a number is refused, exit 2, nothing sent', async () => {
    const before = server.received.length;
    const result = await run(tmp.write('ws.http', `# @protocol graphql\n# @transport ws\n# @variables {"n": 12345678901234567890}\nPOST ${server.url}/graphql\n\nsubscription S($n: ID) { a(n: $n) }\n`));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/has the variable number 12345678901234567890, which a double cannot hold: it cannot go over the WebSocket transport as written/);
    expect(server.received.length).toBe(before);
  });
});

describe('GraphQL variables named __proto__ are sent as written', () => {
  // Copied onto `{}`, a `__proto__` key became the copy's prototype: `{"__proto__": {"a": 1}}` went out as `{}`.
  test.each([
    ['proto.yaml', 'url: URL/graphql\nprotocol: graphql\nbody: "query { a }"\nvariables:\n  __proto__: {a: 1}\n  n: {__proto__: 5}\n'],
    ['proto.json', '{"url": "URL/graphql", "protocol": "graphql", "body": "query { a }", "variables": {"__proto__": {"a": 1}, "n": {"__proto__": 5}}}'],
  ])('%s', async (name, text) => {
    tmp.write(name, text.replace('URL', server.url));
    expect((await run(name)).code).toBe(0);
    expect(sentVariables()).toBe('{"__proto__":{"a":1},"n":{"__proto__":5}}');
  });
});
