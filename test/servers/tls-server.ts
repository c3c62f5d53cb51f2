/**
 * HTTPS servers for the mutual-TLS tests, on 127.0.0.1 with port 0.
 *
 * - `startTlsServer`: Node `https`. With `clientCa` it requires a client certificate issued by
 *   that CA (Node checks it after the handshake and drops the connection otherwise). Answers
 *   200 {"client": "<CN of the client certificate>" | null, "authorized": boolean}.
 * - `startOpensslServer`: `openssl s_server -www -Verify 1 -verify_return_error`, which refuses
 *   a bad client certificate during the handshake with a TLS alert (unknown CA, expired, ...),
 *   as nginx or Apache do.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface TlsServer {
  url: string;
  port: number;
  /** CNs of the client certificates of the requests that got through. */
  clients: (string | null)[];
  close(): Promise<void>;
}

export async function startTlsServer(options: { cert: string; key: string; clientCa?: string }): Promise<TlsServer> {
  const clients: (string | null)[] = [];
  const server = createServer(
    {
      cert: readFileSync(options.cert),
      key: readFileSync(options.key),
      ...(options.clientCa ? { ca: readFileSync(options.clientCa), requestCert: true, rejectUnauthorized: true } : {}),
    },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      const client = peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : null;
      clients.push(client);
      const body = JSON.stringify({ client, authorized: socket.authorized });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    },
  );
  server.on('tlsClientError', () => undefined); // refused handshakes are what some tests want
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    clients,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startOpensslServer(options: { cert: string; key: string; clientCa: string }): Promise<TlsServer> {
  const child = spawn('openssl', ['s_server', '-accept', '127.0.0.1:0', '-cert', options.cert, '-key', options.key, '-CAfile', options.clientCa, '-Verify', '1', '-verify_return_error', '-www'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`openssl s_server did not start: ${output}`)), 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /ACCEPT\s+\S*:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`openssl s_server exited with ${code}: ${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    clients: [],
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
