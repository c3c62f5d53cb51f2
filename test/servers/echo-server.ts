/**
 * An HTTP server for the auth tests. It records every request it receives (tests read the
 * headers from `requests`), and answers without echoing credentials, so that a secret found
 * in reqflow's stdout can only have come from reqflow itself.
 *
 *   ANY /anything        → 200 {"method", "path", "headerNames", "queryNames"}
 *   ANY /hmac            → 200 {"valid": true} when X-Signature is the hex HMAC-SHA256 of
 *                          X-Timestamp under `hmacSecret` and the timestamp is within 5 minutes;
 *                          401 {"valid": false, "reason"} otherwise
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  query: URLSearchParams;
  body: string;
}

export interface EchoServer {
  url: string;
  requests: ReceivedRequest[];
  /** The most recent request (throws when there is none). */
  last(): ReceivedRequest;
  close(): Promise<void>;
}

const MAX_SKEW_SECONDS = 300;

function send(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The server's own check of a signed request: same secret, same timestamp, same recipe. */
function verifyHmac(headers: IncomingHttpHeaders, secret: string): { valid: boolean; reason?: string } {
  const timestamp = String(headers['x-timestamp'] ?? '');
  const signature = String(headers['x-signature'] ?? '');
  if (!/^\d+$/.test(timestamp)) return { valid: false, reason: 'X-Timestamp is not Unix seconds' };
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return { valid: false, reason: 'X-Timestamp is too old' };
  const expected = createHmac('sha256', secret).update(timestamp).digest('hex');
  const ok = signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
  return ok ? { valid: true } : { valid: false, reason: 'X-Signature does not match' };
}

export async function startEchoServer(options: { hmacSecret?: string } = {}): Promise<EchoServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const received: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '/', headers: req.headers, query: url.searchParams, body: await readBody(req) };
      requests.push(received);
      if (url.pathname === '/hmac') {
        const result = verifyHmac(req.headers, options.hmacSecret ?? '');
        return send(res, result.valid ? 200 : 401, result);
      }
      send(res, 200, { method: req.method, path: url.pathname, headerNames: Object.keys(req.headers).sort(), queryNames: [...url.searchParams.keys()] });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    last() {
      const request = requests[requests.length - 1];
      if (!request) throw new Error('the echo server has received no request');
      return request;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
