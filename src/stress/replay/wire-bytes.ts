/**
 * The bytes of a prepared request, written by node:http itself — the same serialiser, with the
 * same inputs, as `one-hop.ts` uses for `reqflow run` — onto a socket that only keeps them. So
 * the request line, the header lines (their order, spelling, repeated lines, `Host`,
 * `Connection: keep-alive`, `Content-Length`) and the body are what a run would put on the wire.
 */
import { Agent, request } from 'node:http';
import { Duplex } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import type { RequestHeaders } from '../../core/headers.js';

export interface WireRequest {
  method: string;
  url: URL;
  /** The request target as one-hop.ts sends it (`requestTarget`). */
  path: string;
  /** The headers as one-hop.ts hands them to node:http (`headersToSend`). */
  headers: RequestHeaders;
  body?: string | Buffer;
}

export function wireBytes(wire: WireRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = new Duplex({
      read: () => undefined,
      write: (chunk: Buffer | string, encoding: BufferEncoding, done: () => void) => {
        chunks.push(Buffer.isBuffer(chunk) ? Buffer.from(chunk) : Buffer.from(chunk, encoding));
        done();
      },
    });
    // A keep-alive agent, as the run's (agents.ts): node:http then writes `Connection: keep-alive`.
    const agent = new Agent({ keepAlive: true });
    agent.createConnection = () => socket as never;
    const https = wire.url.protocol === 'https:';
    // The `Host` node:http derives from the URL: without the port when it is the scheme's default.
    const req = request({ ...urlToHttpOptions(wire.url), protocol: 'http:', defaultPort: https ? 443 : 80, method: wire.method, path: wire.path, headers: wire.headers, agent });
    req.on('error', (error) => {
      agent.destroy();
      reject(error);
    });
    req.end(wire.body, () => {
      resolve(Buffer.concat(chunks));
      req.destroy();
      socket.destroy();
      agent.destroy();
    });
  });
}
