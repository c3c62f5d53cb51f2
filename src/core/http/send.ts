import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { NetworkError, UsageError } from '../errors/index.js';
import type { ResponseInfo, TlsConnectionOptions } from '../pipeline.js';
import type { AgentPool } from './agents.js';
import { toRequestError } from './network-errors.js';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  tls: TlsConnectionOptions;
  timeoutMs: number;
  followRedirects: boolean;
  signal?: AbortSignal;
  /** Streaming responses (SSE) must not time out between events once the headers are in. */
  keepAliveAfterHeaders?: boolean;
}

const MAX_REDIRECTS = 10;
const SUPPORTED = new Set(['http:', 'https:']);

/** Validates a URL once, where it enters the wire: exit 2 for text that is not an http(s) URL. */
export function parseRequestUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`not a valid URL: "${text}"`, { hint: 'URLs must be absolute, e.g. http://localhost:3000/path (is a {{baseUrl}} variable missing?)' });
  }
  if (!SUPPORTED.has(url.protocol)) throw new UsageError(`unsupported URL scheme "${url.protocol.replace(/:$/, '')}" in ${text}`, { hint: 'reqflow sends http:// and https:// requests' });
  return url;
}

/** Sends one request and resolves when the response headers arrive; the body is left as a stream. */
export async function sendHttp(request: OutgoingRequest, agents: AgentPool): Promise<ResponseInfo> {
  let url = parseRequestUrl(request.url);
  let method = request.method;
  let body = request.body;
  const headers = { ...request.headers };
  for (let hop = 0; ; hop++) {
    const started = performance.now();
    const response = await once({ ...request, method, body, headers }, url, agents);
    const location = response.headers.location;
    if (request.followRedirects && location && [301, 302, 303, 307, 308].includes(response.statusCode ?? 0)) {
      if (hop >= MAX_REDIRECTS) throw new NetworkError(`too many redirects (more than ${MAX_REDIRECTS}) from ${request.url}`);
      response.resume();
      const next = new URL(location, url);
      if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        for (const name of Object.keys(headers)) if (/^content-(length|type)$/i.test(name)) delete headers[name];
      }
      // Never carry credentials to another origin.
      if (next.origin !== url.origin) for (const name of Object.keys(headers)) if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) delete headers[name];
      url = next;
      continue;
    }
    return toResponseInfo(response, performance.now() - started, { method, url });
  }
}

function once(request: OutgoingRequest, url: URL, agents: AgentPool): Promise<IncomingMessage> {
  return new Promise((resolvePromise, reject) => {
    const target = { method: request.method, url };
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['Content-Length'] = String(Buffer.byteLength(request.body));
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: request.method, headers, agent: agents.forUrl(url, request.tls) });
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      reject(toRequestError(error, target, request.timeoutMs));
    };
    req.setTimeout(request.timeoutMs, () => {
      const error = Object.assign(new Error('timed out'), { code: 'REQFLOW_TIMEOUT' });
      req.destroy(error);
    });
    const onAbort = (): void => {
      req.destroy(Object.assign(new Error('cancelled'), { code: 'ABORT_ERR' }));
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ABORT_ERR') {
        if (!settled) {
          settled = true;
          reject(new NetworkError(`${request.method} ${url.href} was cancelled`));
        }
        return;
      }
      fail(error);
    });
    req.on('response', (res) => {
      settled = true;
      request.signal?.removeEventListener('abort', onAbort);
      if (request.keepAliveAfterHeaders) req.setTimeout(0);
      else {
        // The same time-out bounds each silence while the body arrives.
        res.socket?.setTimeout(request.timeoutMs);
      }
      resolvePromise(res);
    });
    if (request.body !== undefined) req.end(request.body);
    else req.end();
  });
}

function toResponseInfo(res: IncomingMessage, durationMs: number, target: { method: string; url: URL }): ResponseInfo {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = value;
  const info: ResponseInfo = {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    httpVersion: res.httpVersion,
    headers,
    durationMs,
    size: 0,
  };
  const stream = decoded(res);
  stream.on('data', (chunk: Buffer) => {
    info.size += chunk.length;
  });
  // A reset mid-body surfaces as an error on the stream: give it the same clear wording.
  res.on('aborted', () => stream.destroy(toRequestError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), target, 0)));
  res.socket?.once('timeout', () => stream.destroy(toRequestError(Object.assign(new Error('timed out'), { code: 'REQFLOW_TIMEOUT' }), target, res.socket?.timeout ?? 0)));
  info.stream = stream;
  return info;
}

/** Undoes `Content-Encoding` (gzip, deflate, br) so that the user sees the body, not its wire form. */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) return res;
  const decoder = encoding === 'br' ? createBrotliDecompress() : encoding === 'deflate' ? createInflate() : createGunzip();
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}
