/**
 * HTTP/2 with Node's own `node:http2`: one session per origin and TLS setting, shared by every
 * request of a run (streams multiplexed on one connection). Over TLS the protocol is agreed by
 * ALPN, offering `h2` and `http/1.1`; `http://` URLs speak h2c with prior knowledge (RFC 9113
 * §3.3). Whether a server that does not agree is an error or a fall-back to HTTP/1.1 is the
 * caller's {@link Http2Mode}.
 */
import type { ClientHttp2Session, ClientHttp2Stream, IncomingHttpHeaders as Http2Headers, OutgoingHttpHeaders } from 'node:http2';
import type { Duplex, Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { isEventStream } from '../content-type.js';
import { NetworkError } from '../errors/index.js';
import { fieldValue, type RequestHeaders } from '../headers.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import { interimFlood } from './interim-flood.js';
import type { FileBody, TlsConnectionOptions } from '../model.js';
import { tlsConnectOptions, tlsKey, tunnelledTlsOptions } from './tls-connect.js';
import type { RawResponse } from './raw-response.js';
import { watchSilence } from './silence-watch.js';
import { endSession, watchForEnd } from './http2-ended.js';
import { releaseSession, socketHoldsBytes, type SocketCounters } from './http2-socket.js';
import { openTunnel } from './tunnel.js';

/**
 * `require`: the request line says `HTTP/2` — a server that does not speak it is an error.
 * `prefer`: `--http2` or the profile's `http2` — HTTP/2 where the server agrees, else HTTP/1.1.
 */
export type Http2Mode = 'require' | 'prefer';

/** Connection headers HTTP/2 forbids (RFC 9113 §8.2.2): they describe an HTTP/1.1 connection. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);


/** A session, or `undefined` when the origin answered in HTTP/1.1 only (prefer mode). */
type Opened = ClientHttp2Session | undefined;

/** A session and what it runs on: its socket, then the proxy's tunnel under it if any (made here, so that they can be destroyed). */
interface Connection {
  session: ClientHttp2Session;
  sockets: readonly Duplex[];
}

export class Http2Sessions {
  private readonly sessions = new Map<string, Promise<Opened>>();
  /** Each open session's sockets (http2-socket.ts: Node's session may leave them open). */
  private readonly sockets = new WeakMap<ClientHttp2Session, readonly Duplex[]>();
  /** The last stream id of the GOAWAY each session's server sent: streams above it were not processed (RFC 9113 §6.8). */
  private readonly goaways = new WeakMap<ClientHttp2Session, number>();
  /** How each session is taken out of the cache, so that the next request to its origin opens a new one. */
  private readonly forgetters = new WeakMap<ClientHttp2Session, () => void>();
  /** Open streams per session (a session holds the process open only while one is open). */
  readonly streams = new StreamCount((session) => this.release(session));

  /**
   * The origin's session, opened on first use (through `proxy`, a tunnel: sessions are per proxy
   * too); `undefined`: send this one over HTTP/1.1.
   */
  async session(url: URL, tls: TlsConnectionOptions, mode: Http2Mode, connectTimeoutMs: number, proxy?: URL): Promise<Opened> {
    const key = `${url.origin}|${mode}|${url.protocol === 'https:' ? tlsKey(tls) : ''}|${proxy?.href ?? ''}`;
    const cached = this.sessions.get(key);
    const session = await (cached ?? this.open(key, url, tls, mode, connectTimeoutMs, proxy));
    // Closing since (GOAWAY, the server's idle close): the next request gets a new connection.
    if (session && (session.closed || session.destroyed)) {
      if (this.sessions.get(key) === cached) this.sessions.delete(key);
      return this.session(url, tls, mode, connectTimeoutMs, proxy);
    }
    return session;
  }

  private open(key: string, url: URL, tls: TlsConnectionOptions, mode: Http2Mode, connectTimeoutMs: number, proxy: URL | undefined): Promise<Opened> {
    const opened = connect(url, tls, mode, connectTimeoutMs, proxy).then(
      (connection) => {
        if (!connection) return undefined;
        const { session } = connection;
        this.sockets.set(session, connection.sockets);
        const forget = (): void => {
          if (this.sessions.get(key) === opened) this.sessions.delete(key);
        };
        this.forgetters.set(session, forget);
        // Streams under way finish on this session; new ones go to a new one.
        session.once('goaway', (_code: number, lastStreamId: number) => {
          this.goaways.set(session, lastStreamId);
          forget();
        });
        session.once('close', forget);
        return session;
      },
      (error: unknown) => {
        this.sessions.delete(key);
        throw error;
      },
    );
    this.sessions.set(key, opened);
    return opened;
  }

  /** The last stream id of the GOAWAY `session`'s server sent, if it sent one. */
  lastStreamId(session: ClientHttp2Session): number | undefined {
    return this.goaways.get(session);
  }

  /** Bytes handed to `session`'s socket so far (its own socket's count, readable after the session is destroyed); undefined where it does not say. */
  bytesWritten(session: ClientHttp2Session): number | undefined {
    const written = (this.sockets.get(session)?.[0] as SocketCounters | undefined)?.bytesWritten;
    return typeof written === 'number' ? written : undefined;
  }

  /**
   * Takes `session` out of use: the next request to its origin opens a new connection (a request
   * sent again goes on a fresh one). Its streams under way finish; then Node closes it.
   */
  retire(session: ClientHttp2Session): void {
    this.forgetters.get(session)?.();
    if (!session.closed && !session.destroyed) session.close();
  }

  /** Closes every session so that the process can exit. */
  destroy(): void {
    for (const opened of this.sessions.values()) opened.then((session) => session && this.release(session), () => undefined);
    this.sessions.clear();
  }

  /** Destroys `session` and, if Node would leave it open, its socket. */
  private release(session: ClientHttp2Session): void {
    releaseSession(session, this.sockets.get(session) ?? []);
  }
}

/**
 * Opens a session: TLS with ALPN, or h2c with prior knowledge. Through a proxy, the same over a
 * tunnel (CONNECT or SOCKS) to the server — h2c too, since a forwarding proxy speaks HTTP/1.1.
 * On a failure or the time-out, whatever it was opening is destroyed: a tunnel still waiting
 * for the proxy, a socket, a session would hold the process open.
 */
function connect(url: URL, tls: TlsConnectionOptions, mode: Http2Mode, connectTimeoutMs: number, proxy: URL | undefined): Promise<Connection | undefined> {
  const http2 = lazyBuiltin<typeof import('node:http2')>('node:http2');
  return new Promise<Connection | undefined>((resolve, reject) => {
    let settled = false;
    const abandon = new AbortController();
    /** The tunnel, the TLS socket or the h2c session being opened. */
    const opening: Array<{ destroy(): void }> = [];
    const timer = setTimeout(() => fail(Object.assign(new Error('no connection'), { code: 'REQFLOW_CONNECT_TIMEOUT' })), connectTimeoutMs);
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      abandon.abort();
      for (const part of opening) part.destroy();
      reject(error);
    };
    /** `sockets`: what the session runs on, its own socket first. */
    const done = (session: Opened, sockets: readonly Duplex[] = []): void => {
      if (settled) {
        if (session) releaseSession(session, sockets);
        return;
      }
      settled = true;
      clearTimeout(timer);
      session?.unref(); // idle sessions never keep the process alive; a request refs it
      resolve(session && { session, sockets });
    };
    /** `through`: the proxy's tunnel to the server; else a connection of its own. */
    const overConnection = (through: Duplex | undefined): void => {
      if (url.protocol === 'https:') {
        const socket: TLSSocket = lazyBuiltin<typeof import('node:tls')>('node:tls').connect({
          ...(through ? { socket: through } : { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443) }),
          ...(/^[\d.]+$|^\[/.test(url.hostname) ? {} : { servername: url.hostname }),
          // In a tunnel there is no host to check the certificate against: the URL's is given.
          ...(through ? tunnelledTlsOptions(tls, url) : tlsConnectOptions(tls)),
          ALPNProtocols: ['h2', 'http/1.1'],
        });
        opening.push(socket);
        socket.once('error', fail);
        socket.once('secureConnect', () => {
          socket.removeListener('error', fail);
          if (socket.alpnProtocol !== 'h2') {
            socket.destroy();
            if (mode === 'prefer') return done(undefined);
            return fail(
              new NetworkError(`${url.origin} does not speak HTTP/2: offered h2 by ALPN, the server chose ${socket.alpnProtocol === false || socket.alpnProtocol === null ? 'nothing (HTTP/1.1)' : socket.alpnProtocol}`, {
                hint: 'the request line says HTTP/2: remove it to send the request over HTTP/1.1, or use --http2, which falls back',
              }),
            );
          }
          const session = http2.connect(url.origin, { createConnection: () => socket });
          session.on('error', () => undefined); // each stream reports its own failure
          done(session, through ? [socket, through] : [socket]);
        });
        return;
      }
      // h2c with prior knowledge: the server proves it speaks HTTP/2 by its SETTINGS frame. The
      // socket is made here as Node would make it, to be destroyed if Node leaves it open.
      const socket = through ?? lazyBuiltin<typeof import('node:net')>('node:net').connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
      const session = http2.connect(url.origin, { createConnection: () => socket });
      opening.push(...(through ? [] : [socket]), session);
      const refused = (error: unknown): void => {
        session.destroy();
        if (mode === 'prefer' && (error as NodeJS.ErrnoException).code === 'ERR_HTTP2_ERROR') return done(undefined);
        if ((error as NodeJS.ErrnoException).code === 'ERR_HTTP2_ERROR' || (error as NodeJS.ErrnoException).code === 'ERR_HTTP2_SESSION_ERROR') {
          return fail(new NetworkError(`${url.origin} did not answer in HTTP/2 (h2c with prior knowledge)`, { hint: 'the server speaks HTTP/1.1 only: remove HTTP/2 from the request line, or use --http2, which falls back' }));
        }
        fail(error);
      };
      session.once('error', refused);
      session.once('close', () => refused(Object.assign(new Error('closed'), { code: 'ERR_HTTP2_ERROR' })));
      session.once('remoteSettings', () => {
        session.removeListener('error', refused);
        session.removeAllListeners('close');
        session.on('error', () => undefined);
        done(session, [socket]);
      });
    };
    if (proxy) {
      openTunnel(url, proxy, abandon.signal).then((socket) => {
        if (settled) return void socket.destroy();
        opening.push(socket);
        overConnection(socket);
      }, fail);
    } else overConnection(undefined);
  });
}

/** The request's headers as HTTP/2 sends them: pseudo-headers first, names in lower case. */
export function http2Headers(method: string, url: URL, headers: Readonly<RequestHeaders>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { ':method': method, ':scheme': url.protocol.slice(0, -1), ':path': `${url.pathname}${url.search}`, ':authority': url.host };
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // A Host header written in the file is the authority (RFC 9113 §8.3.1).
    if (lower === 'host') out[':authority'] = fieldValue(name, value);
    else if (lower === 'te' && fieldValue(name, value).trim().toLowerCase() !== 'trailers') continue;
    else if (!HOP_BY_HOP.has(lower)) out[lower] = value;
  }
  return out;
}

export interface Http2Exchange {
  /** Resolves with the response head; the body follows on `body`. */
  response: Promise<RawResponse>;
  /** Cancels the stream (Ctrl-C, a time-out). */
  cancel(error: Error): void;
  /** The stream's id (none if it was never submitted) and its RST_STREAM code: read when it failed, to tell whether it may go again (http2-resend.ts). */
  stream(): { id: number | undefined; rstCode: number | undefined };
}

export interface Http2Send {
  headers: OutgoingHttpHeaders;
  /** A file body is written as it is read (core/file-body.ts). */
  body?: string | Buffer | FileBody;
  /** Each silence, before and after the head, may last this long. */
  timeoutMs: number;
  /** A stream (SSE): no time-out once the head is in. */
  streaming: boolean;
  /** How many interim (1xx) heads may come before the answer. */
  maxInterim: number;
}

/** Sends one request on `session`; `track` counts it among the session's open streams. */
export function http2Request(session: ClientHttp2Session, send: Http2Send, track: StreamCount): Http2Exchange {
  const stream: ClientHttp2Stream = session.request(send.headers, { endStream: send.body === undefined });
  // Counted once it exists: a request Node refuses (a header HTTP/2 cannot carry) throws above.
  track.opened(session);
  stream.once('close', () => track.closed(session));
  stream.setTimeout(send.timeoutMs);
  const response = new Promise<RawResponse>((resolve, reject) => {
    const onTimeout = (): void => {
      stream.destroy(Object.assign(new Error('timed out'), { code: 'REQFLOW_TIMEOUT' }));
    };
    stream.on('timeout', onTimeout);
    stream.once('error', reject);
    // Reset (RST_STREAM, even NO_ERROR) or its connection closed before any answer: no error
    // event comes, and the run would end as if nothing had been asked (exit 0, no output).
    const unanswered = (): void => reject(resetError(stream));
    stream.once('close', unanswered);
    // Interim (1xx) heads arrive as 'headers'; an endless stream of them must still end.
    let interim = 0;
    stream.on('headers', () => {
      if (++interim > send.maxInterim) stream.destroy(interimFlood(send.maxInterim));
    });
    // Trailers come after the DATA frames, before the stream ends: kept for when the body has.
    let trailers: Http2Headers | undefined;
    stream.once('trailers', (fields: Http2Headers) => {
      trailers = {};
      for (const [name, value] of Object.entries(fields)) if (!name.startsWith(':')) trailers[name] = value;
    });
    stream.once('response', (head: Http2Headers) => {
      stream.removeListener('error', reject);
      stream.removeListener('close', unanswered);
      stream.removeListener('timeout', onTimeout);
      const status = Number(head[':status'] ?? 0);
      const plain: Http2Headers = {};
      for (const [name, value] of Object.entries(head)) if (!name.startsWith(':')) plain[name] = value;
      // Only an event stream is read without a time-out: any other answer is a body like any other's.
      const streaming = send.streaming && isEventStream({ status, headers: plain });
      if (streaming) stream.setTimeout(0);
      resolve({
        statusCode: status,
        statusMessage: lazyBuiltin<typeof import('node:http')>('node:http').STATUS_CODES[status] ?? '',
        httpVersion: '2',
        headers: plain,
        body: checkedBody(stream),
        trailers: () => trailers,
        watchIdle: (onIdle) => watchSilence(stream, stream, () => send.timeoutMs, onIdle),
        idleTimeoutMs: () => (streaming ? 0 : send.timeoutMs),
      });
    });
  });
  if (send.body !== undefined) {
    if (typeof send.body === 'object' && 'writeTo' in send.body) send.body.writeTo(stream);
    else stream.end(send.body);
  }
  return {
    response,
    cancel(error) {
      if (!stream.destroyed) stream.destroy(error);
    },
    stream: () => ({ id: stream.id, rstCode: stream.rstCode }),
  };
}

/** What a stream reset or cut short by its server fails with: read as a reset connection (exit 4). */
function resetError(stream: ClientHttp2Stream): NodeJS.ErrnoException {
  const code = stream.rstCode;
  return Object.assign(new Error(code === undefined ? 'the connection closed' : `the stream was reset (HTTP/2 error code ${code})`), { code: 'ECONNRESET' });
}

/**
 * The response body as a stream that fails when the server cuts it short. Node ends an HTTP/2
 * stream the server reset before its last frame (RST_STREAM, even NO_ERROR) as if it were
 * complete, and one whose connection closed may just close: read as they are, half a body would
 * pass for a whole one, as HTTP/1.1's short Content-Length never does (curl: "stream was not
 * closed cleanly"). Only a body that ended with its last frame (END_STREAM) is whole.
 */
function checkedBody(stream: ClientHttp2Stream): Readable {
  const body = new (lazyBuiltin<typeof import('node:stream')>('node:stream').PassThrough)();
  // A failure before the reader takes the body (the head and a reset in one packet) stays in
  // `body.errored`, which the reader looks at first: not an unhandled 'error'.
  body.on('error', () => undefined);
  // How the readable side ended: END_STREAM ends it while the stream is open; a reset, from the
  // stream's close (Node marks the stream closed, then ends the readable side). Node gives no
  // other sign of the difference, so the first end is looked at as it is pushed.
  let cutShort: boolean | undefined;
  const push = stream.push;
  stream.push = function pushed(this: ClientHttp2Stream, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) cutShort ??= stream.closed;
    return push.call(this, chunk, encoding);
  };
  stream.on('data', (chunk: Buffer) => {
    if (!body.write(chunk)) stream.pause();
  });
  body.on('drain', () => stream.resume());
  stream.once('end', () => {
    if (cutShort === true) body.destroy(resetError(stream));
    else body.end();
  });
  stream.once('error', (error) => body.destroy(error));
  stream.once('close', () => {
    if (!stream.readableEnded && !body.destroyed) body.destroy(resetError(stream));
  });
  // The reader gave up on the body (a cancel, --max-size, a closed output): the stream goes too.
  body.once('close', () => void (stream.destroyed || stream.readableEnded || stream.destroy()));
  return body;
}

/**
 * Open streams per session: a session holds the process open only while one is open, and is
 * watched meanwhile for an end nghttp2 keeps to itself (http2-ended.ts), which fails its streams.
 */
class StreamCount {
  /** `release`: destroys a session and its socket (Http2Sessions). */
  constructor(private readonly release: (session: ClientHttp2Session) => void) {}

  private readonly open = new Map<ClientHttp2Session, { streams: number; stopWatch: () => void }>();
  /**
   * The event loop emptied while sessions hold it open for their streams: their sockets neither
   * read nor write, and a session's stops reading only once nghttp2 has ended it — or, closing
   * after the server's own GOAWAY, once its streams are done (left to the run's guard). That guard
   * (in-flight.ts) waits a turn before it fails what is left, so these fail in their own words.
   */
  private readonly loopEmptied = (): void => {
    for (const session of [...this.open.keys()]) if (!session.closed) endSession(session);
  };

  opened(session: ClientHttp2Session): void {
    const count = this.open.get(session);
    if (count) {
      count.streams++;
      return;
    }
    session.ref();
    if (this.open.size === 0) process.on('beforeExit', this.loopEmptied);
    this.open.set(session, { streams: 1, stopWatch: watchForEnd(session, () => endSession(session)) });
  }

  closed(session: ClientHttp2Session): void {
    const count = this.open.get(session);
    if (count && --count.streams > 0) return;
    count?.stopWatch();
    if (this.open.delete(session) && this.open.size === 0) process.off('beforeExit', this.loopEmptied);
    if (session.destroyed) return;
    // No stream left, and bytes the server has not taken (an upload it stopped reading, timed out
    // or cancelled): the connection is let go with them — kept, it would hold the process and
    // the bytes for as long as the server likes. The next request opens a new one.
    if (socketHoldsBytes(session)) this.release(session);
    else session.unref();
  }
}
