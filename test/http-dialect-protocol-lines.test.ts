/**
 * httpyac's protocol request lines (`SSE url`, `WS url`, `GRPC …`, `MQTT …`, `AMQP …`), against
 * real servers on 127.0.0.1: `SSE`/`EVENTSOURCE` is a GET read as an event stream (httpyac's
 * EventSource), `WS`/`WSS` a WebSocket whose body is the messages; `GRPC`, `MQTT(S)` and `AMQP`,
 * which reqflow has no client for, and an `SSE` request with what httpyac never sends (a body, an
 * `Event:` line) are exit 2 naming the line, nothing in the file sent. They used to go out as
 * plain requests with the methods `SSE`, `WS`, `GRPC`. Another custom method (`PURGE`) is still a
 * method, sent as written; a lower-case word is a method Node would send upper-cased: refused.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { startRequestLineRecorder, type RequestLineRecorder } from './helpers/request-line-recorder.js';

const tmp = tempDir('reqflow-protocol-lines-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const run = (name: string, text: string, ...args: string[]) => runCli(['run', tmp.write(name, text), ...args], { cwd: tmp.dir, env });

/** Answers every request with two events; records what came. */
let sse: Recorder;
/** Plain requests (the refusals' first request); must receive nothing when the file is refused. */
let recorder: Recorder;
let ws: WebSocketServer;
let wsPort = 0;
/** What the WebSocket server saw: `upgrade <method> <upgrade header> <path>`, `in <text>`. */
const wsLog: string[] = [];
/** The request lines a raw TCP server received (node:http's parser refuses methods it does not know). */
let raw: RequestLineRecorder;
let rawLines: string[] = [];

beforeAll(async () => {
  sse = await startRecorder((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end('event: tick\nid: 1\ndata: {"n":1}\n\ndata: two\n\n');
  });
  recorder = await startRecorder();
  ws = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  ws.on('connection', (socket, req) => {
    wsLog.push(`upgrade ${req.method} ${req.headers.upgrade} ${req.url}`);
    socket.on('message', (data: Buffer) => {
      wsLog.push(`in ${data.toString('utf8')}`);
      socket.send(`echo ${data.toString('utf8')}`);
    });
  });
  await new Promise<void>((resolve) => ws.once('listening', () => resolve()));
  wsPort = (ws.address() as AddressInfo).port;
  raw = await startRequestLineRecorder();
  rawLines = raw.lines;
});

afterAll(async () => {
  for (const client of ws.clients) client.terminate();
  await Promise.all([sse.close(), recorder.close(), new Promise((resolve) => ws.close(resolve)), raw.close()]);
  tmp.cleanup();
});

describe('SSE url (httpyac): a GET read as an event stream', () => {
  test.each(['SSE', 'EVENTSOURCE'])('%s: the server gets a GET asking for text/event-stream; each event is printed', async (keyword) => {
    sse.received.length = 0;
    const result = await run(`${keyword}.http`, `${keyword} ${sse.url}/events\nX-Trace: 7\n`, '-o', 'json');
    expect(result.code).toBe(0);
    expect(sse.received).toHaveLength(1);
    expect(sse.received[0]).toMatchObject({ method: 'GET', url: '/events', headers: { accept: 'text/event-stream', 'cache-control': 'no-cache', 'x-trace': '7' } });
    expect(sse.received[0]?.body.length).toBe(0);
    const records = parseRecords(result.stdout);
    expect(records.filter((r) => r.type === 'event').map((r) => [r.event, r.data])).toEqual([['tick', { n: 1 }], [undefined, 'two']]);
    expect(records.at(-1)).toMatchObject({ type: 'end', events: 2, reason: 'complete' });
  });

  test('# @keepStreaming on it is accepted (reqflow streams until the server ends)', async () => {
    const result = await run('keep.http', `# @keepStreaming\nSSE ${sse.url}/events\n`, '-o', 'raw');
    expect(result).toMatchObject({ code: 0, stdout: '{"n":1}\ntwo\n' });
  });
});

describe('WS url (httpyac): a WebSocket request, its body the messages', () => {
  test.each(['WS', 'WSS'])('%s: an upgrade, the body sent as a message, the reply printed', async (keyword) => {
    wsLog.length = 0;
    const result = await run(`${keyword}.http`, `${keyword} ws://127.0.0.1:${wsPort}/socket\n\n{"op":"hello"}\n=== wait-for-server\n`, '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(wsLog).toEqual(['upgrade GET websocket /socket', 'in {"op":"hello"}']);
    const records = parseRecords(result.stdout);
    expect(records.filter((r) => r.type === 'event').map((r) => r.data)).toEqual(['echo {"op":"hello"}']);
  });

  test('messages separated by === go one after another, as in httpyac', async () => {
    wsLog.length = 0;
    const result = await run('two.http', `WS ws://127.0.0.1:${wsPort}/two\n\nfirst\n=== wait-for-server\nsecond\n=== wait-for-server\n`, '-o', 'json');
    expect(result.code).toBe(0);
    expect(wsLog).toEqual(['upgrade GET websocket /two', 'in first', 'in second']);
  });
});

describe('refused, naming the line, before anything in the file is sent', () => {
  const refusals: Array<[string, string, RegExp]> = [
    ['GRPC', 'GRPC {{host}}/helloworld.Greeter/SayHello\n\n{"name": "x"}\n', /GRPC requests \(httpyac's gRPC client\) are not supported: reqflow has no gRPC client/],
    ['MQTT', 'MQTT mqtt://127.0.0.1:1883\nTopic: a/b\n\nhello\n', /MQTT requests .* reqflow has no MQTT client/],
    ['MQTTS', 'MQTTS mqtts://127.0.0.1:8883\nTopic: a/b\n', /MQTTS requests .* reqflow has no MQTT client/],
    ['AMQP', 'AMQP amqp://127.0.0.1:5672\namqp_queue: q\n\nhello\n', /AMQP requests .* reqflow has no AMQP client/],
    ['SSE with a body', 'SSE {{host}}/events\n\n{"a": 1}\n', /an SSE request sends no body/],
    ['SSE with an Event: line', 'SSE {{host}}/events\nEvent: tick\n', /an SSE request's Event: line names the events httpyac shows/],
  ];
  test.each(refusals)('%s: exit 2 naming file:line, the request above it not sent', async (_name, request, message) => {
    recorder.received.length = 0;
    const result = await run('refused.http', `@host = ${recorder.url}\n\n###\nGET {{host}}/first\n\n###\n${request}`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`refused\\.http:7:1: ${message.source}`));
    expect(result.stderr).toContain('hint: ');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(recorder.received).toEqual([]);
  });

  test('without ### above it, after a blank line (httpyac starts a request there): refused, not sent as the body above', async () => {
    recorder.received.length = 0;
    const result = await run('unseparated.http', `POST ${recorder.url}/first\nContent-Type: text/plain\n\nhello\n\nGRPC 127.0.0.1:9000/helloworld.Greeter/SayHello\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unseparated\.http:6:1: GRPC requests/);
    expect(recorder.received).toEqual([]);
  });
});

// httpyac reads its keywords in upper case only (a lower-case `sse url` is no SSE request there), so a
// lower-case one is a method, and Node's HTTP/1.1 client would send it upper-cased (`sse` as `SSE`):
// refused naming the line (src/core/methods.ts), as any custom method written in lower case.
test('another method no tool knows is a plain request sent as written; a lower-case keyword is a method refused, not sent upper-cased', async () => {
  rawLines.length = 0;
  const base = raw.url;
  const result = await run('methods.http', `PURGE ${base}/a\n\n###\nPROPFIND ${base}/b\n`);
  expect(result.code).toBe(0);
  expect(rawLines).toEqual(['PURGE /a HTTP/1.1', 'PROPFIND /b HTTP/1.1']);
  for (const word of ['sse', 'ws', 'grpc']) {
    const refused = await run(`lower-${word}.http`, `GET ${base}/first\n\n###\n${word} ${base}/c\n`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`lower-${word}.http:4:1: method "${word}" would go out as "${word.toUpperCase()}"`);
  }
  expect(rawLines).toEqual(['PURGE /a HTTP/1.1', 'PROPFIND /b HTTP/1.1']);
});
