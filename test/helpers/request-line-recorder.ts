/**
 * A raw TCP server on 127.0.0.1 that records the request line of each request it is sent and
 * answers `200 ok`: for methods node:http's own parser refuses (`PURGE`, `PROPFIND`, `SSE`), so
 * a test sees the exact method and target that went over the wire.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RequestLineRecorder {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Each request's line as received: `PURGE /a HTTP/1.1`. */
  lines: string[];
  close(): Promise<void>;
}

export async function startRequestLineRecorder(): Promise<RequestLineRecorder> {
  const lines: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      // Bounded: each pass takes one whole head off what arrived (the requests have no body).
      for (let end = head.indexOf('\r\n\r\n'); end >= 0; end = head.indexOf('\r\n\r\n')) {
        lines.push(head.slice(0, head.indexOf('\r\n')));
        head = head.slice(end + 4);
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy(); // kept-alive clients would hold close() open
      }),
  };
}
