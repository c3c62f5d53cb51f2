/**
 * GraphQL in the terminal UI, against the real graphql-yoga server of the GraphQL tests: `data`
 * pretty-printed with formatted `errors`, and a subscription streamed live until Esc.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, type Harness } from './helpers/tui-harness.js';
import { startGraphqlServer, type GraphqlServer } from './servers/graphql-server.js';

let server: GraphqlServer;
let folder: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = await startGraphqlServer();
  folder = tempDir('reqflow-tui-graphql-');
  folder.write(
    'graph.http',
    [
      '### partial',
      '# @protocol graphql',
      `POST ${server.url}/graphql`,
      '',
      'query Partial { hello(name: "tui") flaky }',
      '',
      '### countdown',
      '# @protocol graphql',
      `POST ${server.url}/graphql`,
      '',
      'subscription { countdown(from: 400, delayMs: 50) }',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
  folder.cleanup();
});

const open = (): Promise<Harness> => startHarness({ dir: folder.dir, env: { PATH: process.env.PATH, REQFLOW_STATE_DIR: `${folder.dir}/state` } });

it('shows GraphQL data and formatted errors (partial data)', async () => {
  const h = await open();
  await h.press('j', 'enter');
  const screen = await h.waitFor('"hello": "Hello, tui!"');
  expect(screen).toMatch(/flaky/);
  expect(screen).not.toContain('HTTP/1.1 200 OK'); // the pane's title shows the status
  expect(screen).toMatch(/error/i);
  expect(screen).not.toMatch(/"errors": \[/); // formatted for reading, not raw JSON
});

it('streams a subscription live in the response pane until Esc', async () => {
  const h = await open();
  await h.press('j', 'j', 'enter');
  await h.waitFor('"countdown": 398');
  await h.press('escape');
  await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('stopped'));
  expect(h.text()).not.toContain('"countdown": 0\n');
});
