import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Recorder {
  url: string;
  /** Every request received, in order, body included. */
  received: Recorded[];
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 (port 0) that records what reqflow actually sent and answers `ok`
 * (or what `answer` writes), for tests that check the wire, not the output.
 */
export async function startRecorder(answer?: (req: IncomingMessage, res: ServerResponse) => void): Promise<Recorder> {
  const received: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (answer) answer(req, res);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An answer in GraphQL's shape (`{"data":{"ok":true}}`), so that GraphQL requests to a recorder report no warning. */
export function answerGraphqlOk(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":{"ok":true}}');
}
