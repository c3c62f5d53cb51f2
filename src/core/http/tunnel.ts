/**
 * Raw tunnels through a proxy to a host and port — `CONNECT` for an http(s) proxy, SOCKS 4 or 5
 * for a socks one — for what Node's agents cannot carry: HTTP/2, which speaks its own TLS and
 * ALPN (or h2c) over the tunnel. A server may speak first (an h2c server sends its SETTINGS as
 * the tunnel opens, often in the packet of the proxy's answer): those bytes are left on the
 * socket for its next reader, which the proxy agents do not do (https-proxy-agent drops them,
 * socks-proxy-agent emits them before anyone listens).
 */
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { NetworkError } from '../errors/index.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import { maskUrl } from '../mask.js';
import { socksPackages } from './proxy-packages.js';

/** A socket to `target`'s host and port through `proxy`. `signal` abandons it: whatever is open is destroyed. */
export function openTunnel(target: URL, proxy: URL, signal: AbortSignal): Promise<Socket> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return proxy.protocol.startsWith('socks') ? socksTunnel(host, port, proxy, signal) : connectTunnel(target, host, port, proxy, signal);
}

/** `CONNECT host:port` with Node's own client, whose 'connect' event hands over the bytes that came after the answer. */
function connectTunnel(target: URL, host: string, port: number, proxy: URL, signal: AbortSignal): Promise<Socket> {
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { Host: authority };
  // As https-proxy-agent sends them (HTTP/1.1 through the same proxy): the URL's userinfo, decoded.
  if (proxy.username || proxy.password) headers['Proxy-Authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
  const tls = proxy.protocol === 'https:';
  const client = tls ? lazyBuiltin<typeof import('node:https')>('node:https') : lazyBuiltin<typeof import('node:http')>('node:http');
  return new Promise((resolve, reject) => {
    const request = client.request({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || (tls ? 443 : 80)), method: 'CONNECT', path: authority, headers, agent: false, signal });
    request.once('error', reject);
    request.once('connect', (answer, socket: Socket, head: Buffer) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        reject(
          new NetworkError(`the proxy ${maskUrl(proxy.href)} refused a tunnel to ${target.host}: ${answer.statusCode ?? ''} ${answer.statusMessage ?? ''}`.trim(), {
            hint: answer.statusCode === 407 ? 'the proxy wants credentials: http://user:password@proxy' : 'the proxy does not allow CONNECT to that host and port',
          }),
        );
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.end();
  });
}

/**
 * The `socks` client over a connection opened here, to the proxy: socks5:// and socks4://
 * resolve the name here, socks5h:// and socks4a:// (and socks://) at the proxy, as
 * socks-proxy-agent does for HTTP/1.1.
 */
async function socksTunnel(host: string, port: number, proxy: URL, signal: AbortSignal): Promise<Socket> {
  const scheme = proxy.protocol.slice(0, -1);
  const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '');
  const proxyPort = Number(proxy.port) || 1080;
  const socket = lazyBuiltin<typeof import('node:net')>('node:net').connect({ host: proxyHost, port: proxyPort });
  const abandon = (): void => void socket.destroy();
  signal.addEventListener('abort', abandon, { once: true });
  try {
    // socks takes a socket it is given as connected (it emits 'connect' on it itself).
    await once(socket, 'connect', { signal });
    const destination = scheme === 'socks5' || scheme === 'socks4' ? (await lazyBuiltin<typeof import('node:dns')>('node:dns').promises.lookup(host)).address : host;
    signal.throwIfAborted();
    const { socket: tunnel } = await socksPackages().SocksClient.createConnection({
      proxy: {
        host: proxyHost,
        port: proxyPort,
        type: scheme.startsWith('socks4') ? 4 : 5,
        ...(proxy.username ? { userId: decodeURIComponent(proxy.username) } : {}),
        ...(proxy.password ? { password: decodeURIComponent(proxy.password) } : {}),
      },
      destination: { host: destination, port },
      command: 'connect',
      existing_socket: socket,
    });
    return await withEarlyBytes(tunnel);
  } catch (error) {
    socket.destroy();
    throw error;
  } finally {
    signal.removeEventListener('abort', abandon);
  }
}

/**
 * socks resolves with the tunnel, then (one setImmediate later) emits what came after the
 * proxy's reply as a 'data' event and resumes the socket, before a reader can attach. Those
 * bytes are caught and put back, the socket paused for its reader.
 */
function withEarlyBytes(socket: Socket): Promise<Socket> {
  const early: Buffer[] = [];
  const collect = (chunk: Buffer): void => void early.push(chunk);
  socket.on('data', collect);
  return new Promise((resolve) => {
    setImmediate(() => {
      socket.removeListener('data', collect);
      socket.pause();
      if (early.length > 0) socket.unshift(Buffer.concat(early));
      resolve(socket);
    });
  });
}
