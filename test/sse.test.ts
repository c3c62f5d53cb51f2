import { eventsOf, parseRecords } from './helpers/records.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { runCli, tempDir } from './helpers/cli.js';
import { startCli } from './helpers/cli-live.js';
import { startSseServer, type SseServer } from './servers/sse-server.js';

let server: SseServer;
const tmp = tempDir('reqflow-sse-');
const env = { REQFLOW_STATE_DIR: `${tmp.dir}/state` };
// The temp folder has no .profiles.json: no profile headers leak in from the repository.
const opts = { env, cwd: tmp.dir };

beforeAll(async () => {
  server = await startSseServer();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

function streamFile(name: string, path: string, extra = ''): string {
  return tmp.write(name, `# @streaming true\n${extra}GET ${server.url}${path}\n`);
}

describe('server-sent events (# @streaming true)', () => {
  test('prints each event the moment it arrives, before the server sends the last one', async () => {
    const file = streamFile('gated.http', '/gated');
    const cli = startCli(['run', file], opts);
    await cli.waitForStdout(/"hello": "world"/);
    // The first event is on screen while the server still holds the last one back.
    expect(server.lastSent()).toBe(false);
    await cli.waitForStdout(/roses are red\nviolets are blue/);
    expect(server.lastSent()).toBe(false);
    expect(cli.stdout()).not.toContain('"last"');
    server.release();
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{\n  "hello": "world",\n  "n": 1\n}\nroses are red\nviolets are blue\n{\n  "last": true\n}\n');
    // Piped: event names and ids go to stderr with the status line, so stdout stays data only.
    expect(result.stderr).toContain('HTTP/1.1 200 OK');
    expect(result.stderr).toContain('event: greeting  id: 1');
    expect(result.stderr).toContain('event: poem  id: 2');
    expect(result.stderr).toContain('event: done  id: 3');
    expect(result.stderr).toContain('-- 3 events; the server ended the stream');
    expect(result.stderr).not.toContain('comment');
  });

  test('-o json prints one compact JSON object per event (NDJSON), as they arrive', async () => {
    const file = streamFile('gated-json.http', '/gated');
    const cli = startCli(['run', file, '-o', 'json'], opts);
    await cli.waitForStdout(/"event":"greeting"/);
    expect(server.lastSent()).toBe(false);
    await cli.waitForStdout(/"event":"poem"/);
    server.release();
    const result = await cli.done;
    expect(result.code).toBe(0);
    const records = parseRecords(result.stdout);
    expect(records.at(-1)).toMatchObject({ type: 'end', status: 200, events: 3, reason: 'complete' });
    expect(eventsOf(records)).toEqual([
      { event: 'greeting', id: '1', data: { hello: 'world', n: 1 } },
      { event: 'poem', id: '2', data: 'roses are red\nviolets are blue' },
      { event: 'done', id: '3', data: { last: true } },
    ]);
  });

  test('the request asks for an event stream', async () => {
    const before = server.requests.length;
    const result = await runCli(['run', streamFile('chat-headers.http', '/chat'), '-o', 'raw'], opts);
    expect(result.code).toBe(0);
    const request = server.requests[before];
    expect(request?.method).toBe('GET');
    expect(request?.headers.accept).toBe('text/event-stream');
    expect(request?.headers['cache-control']).toBe('no-cache');
  });

  test('a POST with a body streams its answer (LLM-style APIs); -o raw prints the data lines', async () => {
    const file = tmp.write('chat.http', `# @streaming true\nPOST ${server.url}/chat\nContent-Type: application/json\n\n{"prompt": "one two three"}\n`);
    const result = await runCli(['run', file, '-o', 'raw'], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"token":"one"}\n{"token":"two"}\n{"token":"three"}\n[DONE]\n');
    expect(server.requests.at(-1)?.method).toBe('POST');
  });

  test('a filter applies to each event; non-JSON data is shown unfiltered with a warning', async () => {
    const file = tmp.write('chat-filter.http', `# @streaming true\n# @filter token\nPOST ${server.url}/chat\n\n{"prompt": "alpha beta"}\n`);
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('"alpha"\n"beta"\n[DONE]\n');
    expect(result.stderr).toContain('the filter applies to JSON data only');
  });

  test('line ends split across chunks, CR-only lines, a split UTF-8 character and a BOM parse correctly', async () => {
    const result = await runCli(['run', streamFile('split.http', '/split'), '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(eventsOf(parseRecords(result.stdout))).toEqual([{ data: { word: 'café' } }, { data: 'second\nline' }, { data: 'plain' }]);
  });

  test('--max-events N ends an endless stream with exit 0 and closes the connection', async () => {
    const result = await runCli(['run', streamFile('ticks.http', '/ticks?interval=20'), '--max-events', '3', '-o', 'json'], opts);
    expect(result.code).toBe(0);
    const records = parseRecords(result.stdout);
    expect(records.at(-1)).toMatchObject({ type: 'end', events: 3, reason: 'max-events' });
    expect(eventsOf(records)).toEqual([
      { id: '1', data: { n: 1 } },
      { id: '2', data: { n: 2 } },
      { id: '3', data: { n: 3 } },
    ]);
    expect(result.stderr).toBe('');
    for (let i = 0; i < 50 && server.openStreams() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.openStreams()).toBe(0);
  });

  test('--timeout bounds the wait for the response headers, not the silences between events', async () => {
    // Silences of 1.5 s, a time-out of 1 s: room for a busy machine to connect and get the headers.
    const result = await runCli(['run', streamFile('ticks-slow.http', '/ticks?interval=1500'), '--timeout', '1000', '--max-events', '2', '-o', 'json'], opts);
    expect(result.code).toBe(0);
    expect(eventsOf(parseRecords(result.stdout))).toEqual([{ id: '1', data: { n: 1 } }, { id: '2', data: { n: 2 } }]);
  });

  test('--stream-timeout MS ends an endless stream with exit 0', async () => {
    const started = Date.now();
    const result = await runCli(['run', streamFile('ticks-timeout.http', '/ticks?interval=30'), '--stream-timeout', '400'], opts);
    const elapsed = Date.now() - started;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"n": 1');
    expect(result.stderr).toContain('stopped by --stream-timeout');
    expect(elapsed).toBeLessThan(10_000); // an endless stream would run until runCli kills it at 20 s
  });

  test('Ctrl-C ends the stream cleanly: exit 0, the events shown, no error', async () => {
    const cli = startCli(['run', streamFile('ticks-sigint.http', '/ticks?interval=30')], opts);
    await cli.waitForStdout(/"n": 2/);
    cli.child.kill('SIGINT');
    const result = await cli.done;
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"n": 1');
    expect(result.stderr).toContain('stopped by the user');
    expect(result.stderr).not.toMatch(/reqflow: (?!warning)/);
    // The connection is closed, not left running.
    for (let i = 0; i < 50 && server.openStreams() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.openStreams()).toBe(0);
  });

  test('a dropped connection is exit 4 after the events already shown', async () => {
    const result = await runCli(['run', streamFile('drop.http', '/drop'), '-o', 'json'], opts);
    expect(result.code).toBe(4);
    const records = parseRecords(result.stdout);
    expect(eventsOf(records)).toEqual([{ data: { n: 1 } }, { data: { n: 2 } }]);
    // -o json ends with the request's error record, as for any failed request.
    expect(records.at(-1)).toMatchObject({ type: 'error', error: { exitCode: 4 } });
    expect(result.stderr).toMatch(/^reqflow: the stream broke off after 2 events: connection to 127\.0\.0\.1:\d+ was reset\nhint: /m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test('an error status is shown as a plain response (status and body), exit 1', async () => {
    const result = await runCli(['run', streamFile('missing.http', '/nowhere')], opts);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('404 Not Found');
    expect(JSON.parse(result.stdout)).toEqual({ error: 'no route /nowhere' });
  });

  test('a response that is not an event stream is shown as it is, with a warning', async () => {
    const result = await runCli(['run', streamFile('not-sse.http', '/not-sse')], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('asked for an event stream but the response is application/json');
    expect(JSON.parse(result.stdout)).toEqual({ message: 'not a stream' });
  });

  test('a connection refused before the stream starts is exit 4', async () => {
    const file = tmp.write('refused.http', '# @streaming true\nGET http://127.0.0.1:1/events\n');
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('connection refused');
  });
});
