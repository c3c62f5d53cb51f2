import { eventsOf, parseRecords } from './helpers/records.js';
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startCli } from './helpers/cli-live.js';
import { startGraphqlServer, type GraphqlServer, type ReceivedOperation } from './servers/graphql-server.js';

let server: GraphqlServer;
const tmp = tempDir('reqflow-gql-subs-');
const stateDir = join(tmp.dir, 'state');
const opts = { env: { REQFLOW_STATE_DIR: stateDir }, cwd: tmp.dir };

beforeAll(async () => {
  server = await startGraphqlServer();
  tmp.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { baseUrl: server.url } }]));
  mkdirSync(dirname(sessionFileFor(stateDir, tmp.dir)), { recursive: true });
  writeFileSync(sessionFileFor(stateDir, tmp.dir), JSON.stringify({ version: 1, variables: { token: server.token }, data: {} }), { mode: 0o600 });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

type Transport = 'sse' | 'ws';
const TRANSPORTS: Transport[] = ['sse', 'ws'];

function subscription(name: string, query: string, transport: Transport, annotations: string[] = []): string {
  const lines = ['# @protocol graphql', ...(transport === 'ws' ? ['# @transport ws'] : []), ...annotations, 'POST {{baseUrl}}/graphql', '', query, ''];
  return tmp.write(name, lines.join('\n'));
}

function lastReceived(): ReceivedOperation {
  const last = server.received.at(-1);
  if (!last) throw new Error('the server received nothing');
  return last;
}

/** The GraphQL results of `-o json` event records, in order. */
const results = (text: string): unknown[] => eventsOf(parseRecords(text)).map((event) => event.data);

describe.each(TRANSPORTS)('GraphQL subscriptions over %s', (transport) => {
  test('each event renders like a GraphQL response; the stream ends with the subscription (exit 0)', async () => {
    const result = await runCli(['run', subscription(`countdown-${transport}.http`, 'subscription Countdown {\n  countdown(from: 3, delayMs: 20)\n}', transport)], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{\n  "countdown": 3\n}\n{\n  "countdown": 2\n}\n{\n  "countdown": 1\n}\n{\n  "countdown": 0\n}\n');
    expect(result.stderr).toContain('-- 4 events; the server ended the stream');
    expect(lastReceived()).toMatchObject({ transport: transport === 'ws' ? 'ws' : 'http', params: { query: 'subscription Countdown {\n  countdown(from: 3, delayMs: 20)\n}' } });
  });

  test('events arrive one by one: the first is printed before the server sends the last', async () => {
    const cli = startCli(['run', subscription(`gated-${transport}.http`, 'subscription { gated }', transport)], opts);
    await cli.waitForStdout(/"gated": "first"/);
    expect(server.isReleased()).toBe(false);
    expect(cli.stdout()).not.toContain('last');
    server.release();
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{\n  "gated": "first"\n}\n{\n  "gated": "last"\n}\n');
  });

  test('-o json prints one event record per result (NDJSON); variables are sent', async () => {
    const file = subscription(`json-${transport}.http`, 'subscription Count($from: Int!) { countdown(from: $from, delayMs: 10) }', transport, ['# @variables {"from": {{start}}}']);
    const result = await runCli(['run', file, '-o', 'json', '-e', 'start=2'], opts);
    expect(result.code).toBe(0);
    expect(results(result.stdout)).toEqual([{ data: { countdown: 2 } }, { data: { countdown: 1 } }, { data: { countdown: 0 } }]);
    expect(lastReceived().params.variables).toEqual({ from: 2 });
    // A number written with a fraction (2.0): the same value on either transport (over WebSocket, the double graphql-ws writes).
    const decimal = await runCli(['run', file, '-o', 'json', '-e', 'start=2.0'], opts);
    expect(decimal.code).toBe(0);
    expect(lastReceived().params.variables).toEqual({ from: 2 });
  });

  test('a filter applies to each event; -o raw prints one result per line', async () => {
    const result = await runCli(['run', subscription(`raw-${transport}.http`, 'subscription { countdown(from: 2, delayMs: 10) }', transport), '-o', 'raw', '--filter', 'data.countdown'], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('2\n1\n0\n');
  });

  test('--max-events N stops after N results, exit 0', async () => {
    const result = await runCli(['run', subscription(`max-${transport}.http`, 'subscription { countdown(from: 50, delayMs: 20) }', transport), '--max-events', '2', '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(results(result.stdout)).toEqual([{ data: { countdown: 50 } }, { data: { countdown: 49 } }]);
  });

  test('--stream-timeout MS stops it, exit 0', async () => {
    const result = await runCli(['run', subscription(`timeout-${transport}.http`, 'subscription { countdown(from: 500, delayMs: 30) }', transport), '--stream-timeout', '300'], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"countdown": 500');
    expect(result.stderr).toContain('stopped by --stream-timeout');
  });

  test('Ctrl-C ends it cleanly with exit 0', async () => {
    const cli = startCli(['run', subscription(`sigint-${transport}.http`, 'subscription { countdown(from: 500, delayMs: 30) }', transport)], opts);
    await cli.waitForStdout(/"countdown": 499/);
    cli.child.kill('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
    expect(result.stderr).toContain('stopped by the user');
    expect(result.stderr).not.toMatch(/reqflow: (?!warning)/);
  });

  test('the bearer token from the session goes with the subscription', async () => {
    const result = await runCli(['run', subscription(`auth-${transport}.http`, 'subscription { countdown(from: 0) }', transport, ['# @auth bearer'])], opts);
    expect(result.code).toBe(0);
    expect(lastReceived().headers.authorization).toBe(`Bearer ${server.token}`);
  });

  test('a subscription the server rejects (validation) shows the errors, exit 1', async () => {
    const result = await runCli(['run', subscription(`invalid-${transport}.http`, 'subscription { nope }', transport)], opts);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: Cannot query field "nope" on type "Subscription".\n  at 1:16');
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js/);
  });

  test('a refused connection is exit 4', async () => {
    const file = tmp.write(`refused-${transport}.http`, ['# @protocol graphql', ...(transport === 'ws' ? ['# @transport ws'] : []), 'POST http://127.0.0.1:1/graphql', '', 'subscription { countdown(from: 1) }', ''].join('\n'));
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('connection refused by 127.0.0.1:1');
  });
});

describe('GraphQL subscriptions: transport details', () => {
  test('GraphQL over SSE: a POST with Accept: text/event-stream', async () => {
    await runCli(['run', subscription('sse-headers.http', 'subscription { countdown(from: 0) }', 'sse')], opts);
    const received = lastReceived();
    expect(received.method).toBe('POST');
    expect(received.headers.accept).toBe('text/event-stream');
    expect(received.headers['content-type']).toBe('application/json');
  });

  test('WebSocket: the graphql-transport-ws subprotocol, and # @connectionParams ({{var}} substituted)', async () => {
    const file = subscription('ws-params.http', 'subscription { countdown(from: 0) }', 'ws', ['# @connectionParams {"authorization": "Bearer {{token}}", "client": "reqflow"}']);
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(0);
    const received = lastReceived();
    expect(received.headers['sec-websocket-protocol']).toBe('graphql-transport-ws');
    expect(received.connectionParams).toEqual({ authorization: `Bearer ${server.token}`, client: 'reqflow' });
    expect(result.stderr).not.toContain('warning'); // no "sent as POST" warning for a WebSocket
  });

  test('WebSocket: a ws:// URL is used as written', async () => {
    const file = tmp.write('ws-url.http', `# @protocol graphql\n# @transport ws\nGET ${server.url.replace('http://', 'ws://')}/graphql\n\nsubscription { countdown(from: 1) }\n`);
    const result = await runCli(['run', file, '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(results(result.stdout)).toEqual([{ data: { countdown: 1 } }, { data: { countdown: 0 } }]);
  });

  test('WebSocket: an endpoint that refuses the upgrade is exit 1 with the HTTP status', async () => {
    const file = tmp.write('ws-refused.http', '# @protocol graphql\n# @transport ws\nPOST {{baseUrl}}/elsewhere\n\nsubscription { countdown(from: 1) }\n');
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/reqflow: the server refused the WebSocket upgrade at ws:\/\/127\.0\.0\.1:\d+\/elsewhere: HTTP \d{3}/);
  });

  test('WebSocket: a server that never acknowledges the connection is exit 4 at --timeout, and the run ends', async () => {
    const { WebSocketServer } = await import('ws');
    const silent = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (protocols: Set<string>) => [...protocols][0] ?? false });
    await new Promise<void>((resolve) => silent.once('listening', () => resolve()));
    try {
      const { port } = silent.address() as { port: number };
      const file = tmp.write('ws-no-ack.http', `# @protocol graphql\n# @transport ws\nPOST http://127.0.0.1:${port}/graphql\n\nsubscription { a }\n`);
      const result = await runCli(['run', file, '--timeout', '1000'], { ...opts, timeoutMs: 20_000 });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/GraphQL WebSocket to 127\.0\.0\.1:\d+ timed out after 1000 ms/);
    } finally {
      for (const client of silent.clients) client.terminate();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('an unknown # @transport is exit 2', async () => {
    const file = subscription('transport-bad.http', 'subscription { countdown(from: 1) }', 'sse', ['# @transport carrier-pigeon']);
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown # @transport "carrier-pigeon"');
  });

  test('a query can stream too (# @streaming true sends it over SSE)', async () => {
    const file = subscription('query-stream.http', '{ hello }', 'sse', ['# @streaming true']);
    const result = await runCli(['run', file, '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(results(result.stdout)).toEqual([{ data: { hello: 'Hello, world!' } }]);
    expect(lastReceived().headers.accept).toBe('text/event-stream');
  });
});

describe("the spec's subscription workaround: GET /graphql/subscriptions?query= with SSE", () => {
  const workaround = (name: string, query: string): string =>
    tmp.write(name, `# @streaming true\nGET {{baseUrl}}/graphql/subscriptions?query=${query}\nAccept: text/event-stream\n`);

  test('as written, with {{query}} passed already URL-encoded', async () => {
    const file = workaround('workaround.http', '{{query}}');
    const query = encodeURIComponent('subscription { countdown(from: 2, delayMs: 10) }');
    const result = await runCli(['run', file, '-e', `query=${query}`, '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(eventsOf(parseRecords(result.stdout))).toEqual([
      { event: 'next', data: { data: { countdown: 2 } } },
      { event: 'next', data: { data: { countdown: 1 } } },
      { event: 'next', data: { data: { countdown: 0 } } },
      { event: 'complete', data: '' },
    ]);
    expect(lastReceived()).toMatchObject({ method: 'GET', params: { query: 'subscription { countdown(from: 2, delayMs: 10) }' } });
  });

  test('as written, with a plain {{query}}: spaces and braces are percent-encoded on the wire', async () => {
    const result = await runCli(['run', workaround('workaround-plain.http', '{{query}}'), '-e', 'query=subscription { countdown(from: 0) }', '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(eventsOf(parseRecords(result.stdout))).toEqual([{ event: 'next', data: { data: { countdown: 0 } } }, { event: 'complete', data: '' }]);
  });

  test('with the {{urlencode query}} helper and a plain query', async () => {
    const file = workaround('workaround-helper.http', '{{urlencode query}}');
    const result = await runCli(['run', file, '-e', 'query=subscription { countdown(from: 1, delayMs: 10) }'], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{\n  "data": {\n    "countdown": 1\n  }\n}\n{\n  "data": {\n    "countdown": 0\n  }\n}\n\n');
    expect(result.stderr).toContain('event: next');
    expect(result.stderr).toContain('event: complete');
  });

  test('events arrive one by one through the workaround too', async () => {
    const file = workaround('workaround-gated.http', '{{urlencode query}}');
    const cli = startCli(['run', file, '-e', 'query=subscription { gated }', '-o', 'json'], opts);
    await cli.waitForStdout(/"first"/);
    expect(server.isReleased()).toBe(false);
    server.release();
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(eventsOf(parseRecords(result.stdout))).toEqual([
      { event: 'next', data: { data: { gated: 'first' } } },
      { event: 'next', data: { data: { gated: 'last' } } },
      { event: 'complete', data: '' },
    ]);
  });
});

describe('GraphQL over WebSocket through a proxy', () => {
  test('the WebSocket goes through the proxy as a CONNECT tunnel; -v names the proxy', async () => {
    const { createProxy } = await import('proxy');
    const { createServer } = await import('node:http');
    const proxy = createProxy(createServer());
    const seen: string[] = [];
    proxy.on('connect', (req: { url?: string }) => seen.push(`CONNECT ${req.url ?? ''}`));
    proxy.on('request', (req: { method?: string; url?: string }) => seen.push(`${req.method ?? ''} ${req.url ?? ''}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const result = await runCli(['run', subscription('proxied-ws.http', 'subscription Countdown {\n  countdown(from: 1, delayMs: 10)\n}', 'ws'), '--proxy', proxyUrl, '-v'], opts);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('"countdown": 0');
      expect(seen).toEqual([`CONNECT ${new URL(server.url).host}`]);
      expect(result.stderr).toContain(`through the proxy ${proxyUrl}/`);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
