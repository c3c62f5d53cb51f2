/**
 * Every kind of request goes through the same loop and the same reporting layer: one record
 * shape for `-o json`, one set of default headers, no state left behind by a request that
 * changes the next one.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { startGraphqlServer, type GraphqlServer } from './servers/graphql-server.js';
import { startSseServer } from './servers/sse-server.js';

type SseServer = Awaited<ReturnType<typeof startSseServer>>;

let graphql: GraphqlServer;
let sse: SseServer;
const tmp = tempDir('reqflow-one-route-');
const opts = (): { env: NodeJS.ProcessEnv; cwd: string } => ({ env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` }, cwd: tmp.dir });

beforeAll(async () => {
  [graphql, sse] = await Promise.all([startGraphqlServer(), startSseServer()]);
});
afterAll(async () => {
  await Promise.all([graphql.close(), sse.close()]);
  tmp.cleanup();
});

describe('-o json: one record shape for every kind of request', () => {
  test('HTTP, a GraphQL query, an SSE stream and a failing request: every line validates and carries the envelope', async () => {
    const file = tmp.write(
      'mixed.http',
      [
        '### plain',
        `GET ${sse.url}/not-sse`,
        '',
        '### query',
        '# @protocol graphql',
        `POST ${graphql.url}/graphql`,
        '',
        '{ hello }',
        '',
        '### ticks',
        '# @streaming true',
        `GET ${sse.url}/ticks?interval=10`,
        '',
        '### refused',
        'GET http://127.0.0.1:1/nothing-listens-here',
        '',
      ].join('\n'),
    );
    const result = await runCli(['run', file, '-o', 'json', '--max-events', '2'], opts());
    expect(result.code).toBe(4); // the refused connection
    const records = parseRecords(result.stdout); // throws on any line that does not match docs/record.schema.json
    expect(records.map((r) => [r.type, r.name])).toEqual([
      ['response', 'plain'],
      ['response', 'query'],
      ['event', 'ticks'],
      ['event', 'ticks'],
      ['end', 'ticks'],
      ['error', 'refused'],
    ]);
    for (const record of records) {
      expect(typeof record.method).toBe('string');
      expect(record.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    }
    expect(records[1]).toMatchObject({ method: 'POST', status: 200, body: { data: { hello: 'Hello, world!' } } });
    expect(records[2]).toMatchObject({ seq: 1, status: 200, id: '1', data: { n: 1 } });
    expect(records[4]).toMatchObject({ events: 2, reason: 'max-events' });
    expect(records[5]).toMatchObject({ method: 'GET', error: { exitCode: 4 } });
  });

  test('a filter applies once, to bodies and to each event alike', async () => {
    const file = tmp.write('filtered.http', `### one\n# @filter message\nGET ${sse.url}/not-sse\n\n### stream\n# @streaming true\n# @filter n\nGET ${sse.url}/ticks?interval=10\n`);
    const records = parseRecords((await runCli(['run', file, '-o', 'json', '--max-events', '2'], opts())).stdout);
    expect(records.map((r) => r.body ?? r.data ?? r.reason)).toEqual(['not a stream', 1, 2, 'max-events']);
  });
});

describe('no state survives from one request to the next', () => {
  test('a GraphQL-over-WebSocket subscription followed by a plain HTTP request in one file: both work', async () => {
    const file = tmp.write(
      'ws-then-http.http',
      ['### countdown', '# @protocol graphql', '# @transport ws', `POST ${graphql.url}/graphql`, '', 'subscription { countdown(from: 1) }', '', '### plain', `GET ${sse.url}/not-sse`, ''].join('\n'),
    );
    const result = await runCli(['run', file, '-o', 'json'], opts());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const records = parseRecords(result.stdout);
    expect(records.map((r) => `${r.type} ${r.name}`)).toEqual(['event countdown', 'event countdown', 'end countdown', 'response plain']);
    expect(records[3]).toMatchObject({ status: 200, url: `${sse.url}/not-sse`, body: { message: 'not a stream' } });
  });

  test('the same URL twice after a WebSocket request still goes out as http://', async () => {
    const url = `${graphql.url}/graphql`;
    const file = tmp.write('same-url.http', `### ws\n# @protocol graphql\n# @transport ws\nPOST ${url}\n\nsubscription { countdown(from: 0) }\n\n### http\n# @protocol graphql\nPOST ${url}\n\n{ hello }\n`);
    const result = await runCli(['run', file, '-o', 'json'], opts());
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(parseRecords(result.stdout).at(-1)).toMatchObject({ type: 'response', name: 'http', body: { data: { hello: 'Hello, world!' } } });
  });
});

describe('default headers come from the HTTP core, for every kind of request', () => {
  test('an SSE request carries the same User-Agent and Accept rules as a plain one', async () => {
    const before = sse.requests.length;
    const file = tmp.write('ua.http', `### plain\nGET ${sse.url}/not-sse\n\n### stream\n# @streaming true\nGET ${sse.url}/ticks?interval=10\n`);
    const result = await runCli(['run', file, '--max-events', '1'], opts());
    expect(result.code).toBe(0);
    const [plain, stream] = sse.requests.slice(before) as Array<{ headers: Record<string, string> }>;
    expect(plain?.headers['user-agent']).toMatch(/^reqflow\/\d+\.\d+\.\d+$/);
    expect(stream?.headers['user-agent']).toBe(plain?.headers['user-agent']);
    expect(plain?.headers.accept).toBe('*/*');
    expect(stream?.headers.accept).toBe('text/event-stream'); // the stream's own, set by the SSE plugin
  });

  test('a request that sets its own User-Agent keeps it', async () => {
    const before = sse.requests.length;
    const file = tmp.write('own-ua.http', `# @streaming true\nGET ${sse.url}/ticks?interval=10\nUser-Agent: my-agent/1.0\n`);
    expect((await runCli(['run', file, '--max-events', '1'], opts())).code).toBe(0);
    expect((sse.requests[before] as { headers: Record<string, string> }).headers['user-agent']).toBe('my-agent/1.0');
  });
});
