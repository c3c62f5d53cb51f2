/**
 * Ctrl-C while an HTTP/2 request's file body is looked at (the moment before its stream opens):
 * the hop checked for a cancel before that wait and listened for one only after it, so a Ctrl-C
 * pressed meanwhile was heard by nobody — the request went out and waited for `--timeout`
 * (`reqflow run`'s Ctrl-C, pressed as an upload began, was lost). In-process: the body's look is
 * where the run is cancelled.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { AbortHooks } from '../src/core/abort-hooks.js';
import { AgentPool } from '../src/core/http/agents.js';
import { onceMaybeHttp2 } from '../src/core/http/http2-hop.js';
import type { OutgoingRequest } from '../src/core/http/outgoing-request.js';
import type { FileBody } from '../src/core/model.js';

let server: Http2Server;
let port = 0;
/** The server never answers: a request that went out waits for its time-out. */
const streams = new Set<ServerHttp2Stream>();

beforeAll(async () => {
  server = createServer();
  server.on('stream', (stream) => void streams.add(stream));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await new Promise((resolve) => server.close(resolve));
});

test('a Ctrl-C while the file body is looked at cancels the request, nothing sent', async () => {
  const run = new AbortController();
  const agents = new AgentPool();
  // The run is cancelled during the look at the file, as a Ctrl-C pressed then would be.
  const body = { byteLength: 1, unchanged: async () => run.abort(), writeTo: (stream: { end(chunk: string): void }) => stream.end('x') } as unknown as FileBody;
  const url = new URL(`http://127.0.0.1:${port}/up`);
  const request: OutgoingRequest = { method: 'POST', url: url.href, headers: {}, body, tls: {}, timeoutMs: 60_000, followRedirects: false, abort: new AbortHooks(run.signal) };
  let bound: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      onceMaybeHttp2(request, url, agents, 'require', () => Promise.reject(new Error('not over HTTP/1.1'))).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
      // Without the fix: the request waits for its 60 s time-out.
      new Promise<string>((resolve) => (bound = setTimeout(() => resolve('still waiting'), 10_000))),
    ]);
    expect(outcome).toBe(`POST http://127.0.0.1:${port}/up was cancelled`);
    expect(streams.size).toBe(0);
  } finally {
    clearTimeout(bound);
    agents.destroy();
  }
}, 30_000);
