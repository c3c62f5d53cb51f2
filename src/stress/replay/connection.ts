/**
 * One worker's connection for a replayed request: the prepared bytes written on a kept-alive
 * socket (TCP, or TLS with the run's options), the response read by `http-parser-js` (the
 * parser autocannon uses) — content-length, chunked or close-delimited bodies, interim 1xx
 * answers, HEAD — and dropped as it arrives. One request at a time; a socket the server closes
 * (`Connection: close`, HTTP/1.0, an idle time-out) is opened again for the next request.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { HTTPParser } from 'http-parser-js';
import { lazyBuiltin } from '../../core/lazy-builtin.js';
import { codedError } from '../../core/http/hop-failures.js';
import { interimFlood, MAX_INTERIM_RESPONSES } from '../../core/http/interim-flood.js';
import { CAPTURE_LIMIT, wantsExtraction } from '../../core/token-extraction.js';
import type { ReplayTarget } from './prepare.js';

export interface ReplayResponse {
  status: number;
  /** The header lines as name, value, name, value… (`Set-Cookie` and `Content-Encoding` are read). */
  headers: readonly string[];
  /** The body, kept when the token extraction reads it (a 2xx JSON response, extraction on); undefined past 1 MiB. */
  body?: Buffer;
  /** Milliseconds from writing the request to the body's last byte. */
  latencyMs: number;
}

/**
 * How many bytes of the chunk being parsed lie past where http-parser-js stands (its own `offset`
 * and `end`, which it does not declare): read as a response completes, anything left is an answer
 * nobody asked for.
 */
function bytesLeft(parser: InstanceType<typeof HTTPParser>): number {
  const { offset, end } = parser as unknown as { offset?: number; end?: number };
  return typeof offset === 'number' && typeof end === 'number' ? end - offset : 0;
}

/** A socket idle this long is not reused: a server's usual 5 s would close it under a request (agents.ts). */
const IDLE_MS = 4000;

interface Pending {
  resolve: (response: ReplayResponse) => void;
  reject: (error: Error) => void;
  startedAt: number;
  status: number;
  headers: readonly string[];
  interim: number;
  keepAlive: boolean;
  /** The body's chunks, when it is kept; undefined past the capture limit. */
  body: Buffer[] | undefined;
  size: number;
}

/** The header lines as an object of lower-case names (only what `wantsExtraction` reads). */
function headerRecord(lines: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < lines.length; i += 2) record[(lines[i] as string).toLowerCase()] = lines[i + 1] as string;
  return record;
}

export class ReplayConnection {
  private socket: Socket | undefined;
  private pending: Pending | undefined;
  /** performance.now() when the socket's last response ended. */
  private idleSince = 0;

  constructor(private readonly target: ReplayTarget) {}

  /** Sends the request once; rejects with the socket's or the parser's error (coded as Node codes them). */
  send(): Promise<ReplayResponse> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, startedAt: performance.now(), status: 0, headers: [], interim: 0, keepAlive: true, body: undefined, size: 0 };
      const kept = this.socket;
      if (kept && (kept.destroyed || this.pending.startedAt - this.idleSince > IDLE_MS)) this.drop(kept);
      (this.socket ?? this.open()).write(this.target.bytes);
    });
  }

  /** Closes the socket; a request in flight ends with a cancellation (the run was stopped). */
  close(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (this.socket) this.drop(this.socket);
    pending?.reject(codedError('cancelled', 'ABORT_ERR'));
  }

  private open(): Socket {
    const { url, tls } = this.target;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (tls ? 443 : 80));
    const socket = tls ? lazyBuiltin<typeof import('node:tls')>('node:tls').connect({ ...tls, host, port }) : tcpConnect({ host, port });
    socket.setNoDelay(true);
    // Silence past --timeout fails the request in flight (node:net restarts the timer on every read and write).
    socket.setTimeout(this.target.timeoutMs);
    const parser = new HTTPParser(HTTPParser.RESPONSE);
    this.socket = socket;
    // A new socket must connect (TCP and TLS) in time, as one-hop.ts has it.
    const expired = this.target.connectTimeoutMs === undefined ? codedError('timed out', 'REQFLOW_TIMEOUT') : codedError('no connection', 'REQFLOW_CONNECT_TIMEOUT');
    const timer = setTimeout(() => socket.destroy(expired), this.target.connectTimeoutMs ?? this.target.timeoutMs);
    socket.once(tls ? 'secureConnect' : 'connect', () => clearTimeout(timer)).once('close', () => clearTimeout(timer));
    parser[HTTPParser.kOnHeadersComplete] = (info) => {
      const pending = this.pending;
      if (!pending) return 0;
      pending.status = info.statusCode;
      pending.headers = info.headers;
      pending.keepAlive = info.shouldKeepAlive;
      // The loop's token extraction reads a 2xx JSON body (capture-token.ts): so does the replay.
      const extracting = this.target.session !== undefined && info.statusCode >= 200 && info.statusCode < 300;
      pending.body = extracting && wantsExtraction({ status: info.statusCode, headers: headerRecord(info.headers) }) ? [] : undefined;
      pending.size = 0;
      if (info.upgrade) this.fail(socket, codedError(`the server switched protocols (${info.statusCode}) without being asked`, 'REQFLOW_UNEXPECTED_UPGRADE'));
      // No body follows a HEAD's answer, a 204 or a 304, whatever Content-Length says (RFC 9112 §6.3), as Node's client reads them.
      return this.target.head || info.statusCode === 204 || info.statusCode === 304 ? 1 : 0;
    };
    parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
      const pending = this.pending;
      if (!pending?.body) return;
      pending.size += length;
      if (pending.size > CAPTURE_LIMIT) pending.body = undefined;
      else pending.body.push(Buffer.from(chunk.subarray(offset, offset + length)));
    };
    parser[HTTPParser.kOnMessageComplete] = () => this.complete(socket, bytesLeft(parser) > 0);
    socket.on('data', (chunk: Buffer) => {
      // Bytes nobody asked for: the exchange is out of step, the socket unusable.
      if (!this.pending) return this.drop(socket);
      const parsed = parser.execute(chunk);
      if (parsed instanceof Error) this.fail(socket, parsed);
    });
    socket.on('timeout', () => (this.pending && this.socket === socket ? socket.destroy(codedError('timed out', 'REQFLOW_TIMEOUT')) : this.drop(socket)));
    socket.on('error', (error) => this.fail(socket, error));
    socket.on('close', () => {
      // A body that ends with the connection is complete here; anything else ended too soon.
      if (this.pending && this.socket === socket) parser.finish();
      this.fail(socket, codedError('socket hang up', 'ECONNRESET'));
    });
    return socket;
  }

  /** `trailing`: bytes followed the response in the same read — an answer nobody asked for, even half of one. */
  private complete(socket: Socket, trailing: boolean): void {
    const pending = this.pending;
    if (!pending || this.socket !== socket) return;
    if (pending.status >= 100 && pending.status < 200) {
      // 100 Continue, 103 Early Hints: the answer is still to come.
      if (++pending.interim > MAX_INTERIM_RESPONSES) this.fail(socket, interimFlood());
      return;
    }
    this.pending = undefined;
    // Out of step: the next request's answer could not be told from what the server sent unasked.
    if (!pending.keepAlive || trailing) this.drop(socket);
    this.idleSince = performance.now();
    const response: ReplayResponse = { status: pending.status, headers: pending.headers, latencyMs: this.idleSince - pending.startedAt };
    if (pending.body) response.body = Buffer.concat(pending.body);
    pending.resolve(response);
  }

  private fail(socket: Socket, error: Error): void {
    if (this.socket !== socket) return;
    const pending = this.pending;
    this.pending = undefined;
    this.drop(socket);
    pending?.reject(error);
  }

  private drop(socket: Socket): void {
    if (this.socket === socket) this.socket = undefined;
    socket.destroy();
  }
}
