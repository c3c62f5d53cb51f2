/**
 * Listening on a local address for reqflow's own servers (`reqflow mock`, `reqflow proxy`): a
 * taken port or a refused address is exit 2 naming it, never a stack trace.
 */
import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { UsageError } from './errors/index.js';

/** Listens on `host:port`; resolves with the port listened on (the real one when 0 was asked). */
export async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new UsageError(`port ${port} is in use (${where})`, { hint: 'pick another with --port, or --port 0 for a free one' }));
      else if (error.code === 'EACCES') reject(new UsageError(`no permission to listen on ${where}`, { hint: 'ports below 1024 need privileges: pick another with --port' }));
      else reject(new UsageError(`cannot listen on ${where}: ${error.code ?? error.message}`));
    });
    server.listen(port, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

/** `http://host:port`, an IPv6 address in brackets. */
export function httpAddress(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** This machine only: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
