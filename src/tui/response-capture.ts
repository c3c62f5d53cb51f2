import type { OutputSink, ResponseInfo } from '../core/model.js';
import type { ConnectionPhases } from '../core/http/outgoing-request.js';
import type { OutgoingRequest } from '../report/outgoing-request.js';
import { ByteLines } from './pager/byte-lines.js';

/** Status line facts of a response, as the response pane shows them. */
export interface ResponseMeta {
  status: number;
  statusText: string;
  httpVersion: string;
  durationMs: number;
  size: number;
  headers: Record<string, string | string[]>;
}

/** Most text a stream keeps: its newest events (a body is kept whole). */
const STREAM_LIMIT = 8 * 1024 * 1024;

const SGR = /\u001b\[[\d;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(SGR, '');
}

/**
 * The TUI's output sink for one request: what the pane reporter (pane-reporter.ts) writes
 * lands here (bodies, GraphQL results, stream events) and the response pane draws from it.
 */
export class ResponseCapture implements OutputSink {
  private response?: ResponseInfo;
  /** Set while events arrive (`# @streaming true`, subscriptions). */
  streaming = false;
  /** The text to copy with `y` when it differs from what is shown (the body as received). */
  copySource?: string;
  readonly warnings: string[] = [];
  /** What the pane shows, as the pane reporter wrote it (colours kept), stored as bytes and paged. */
  display = new ByteLines();
  /** The body's bytes exactly as received (for saving, the hex view, the raw view). */
  bytes?: Buffer;
  /** The body is shown as received, not rendered: too large to render, or binary (then hex). */
  raw?: 'text' | 'binary';
  /** The request as sent, for copying it as curl (secrets as they are: masked when printed). */
  outgoing?: OutgoingRequest;
  /** How long DNS, connect, TLS and the first byte took (HTTP/1.1; the send layer measures them for the UI). */
  phases?: ConnectionPhases;
  /** Milliseconds from the start of the request: response headers in, body in, done. */
  times: { started: number; head?: number; body?: number; done?: number } = { started: performance.now() };
  private dropped = false;

  constructor(private readonly onChange: () => void = () => undefined) {}

  out(chunk: string | Uint8Array): void {
    this.display.append(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    if (this.streaming && this.display.byteLength > STREAM_LIMIT) {
      // A stream keeps its newest events, from a line's start.
      const tail = this.display.read(this.display.byteLength - STREAM_LIMIT / 2, this.display.byteLength);
      const from = tail.indexOf(0x0a) + 1;
      this.display = new ByteLines(Buffer.from(tail.subarray(from)));
      this.dropped = true;
    }
    this.onChange();
  }

  /** The body as received, kept for the pager; `raw`: shown as it is instead of rendered. */
  keepBody(bytes: Buffer, raw?: 'text' | 'binary'): void {
    this.bytes = bytes;
    delete this.bodyIndex;
    if (raw) this.raw = raw;
    else delete this.raw;
    this.times.body ??= performance.now();
  }

  err(line: string): void {
    this.warnings.push(stripAnsi(line).replace(/^reqflow: warning: /, ''));
    this.onChange();
  }

  setResponse(response: ResponseInfo): void {
    this.response = response;
    this.times.head ??= performance.now();
    this.onChange();
  }

  /** Read live: a stream's size grows while events arrive. */
  get meta(): ResponseMeta | undefined {
    const response = this.response;
    if (!response) return undefined;
    return {
      status: response.status,
      statusText: response.statusText,
      httpVersion: response.httpVersion,
      durationMs: response.durationMs,
      size: response.body?.length ?? response.size,
      headers: response.headers,
    };
  }

  private bodyIndex?: ByteLines;

  /** The body's bytes as lines (indexed once, when first paged). */
  bodyLines(): ByteLines {
    this.bodyIndex ??= new ByteLines(this.bytes);
    return this.bodyIndex;
  }

  /** True when nothing was received or written yet. */
  get empty(): boolean {
    return !this.response && this.display.byteLength === 0;
  }

  /** True when a stream lost its oldest events to the size limit. */
  get truncated(): boolean {
    return this.dropped;
  }

  /** What `y` copies: the body as received, else the shown text without colours. */
  copyText(): string {
    if (this.copySource !== undefined) return this.copySource;
    if (this.raw) return this.raw === 'text' && this.bytes ? this.bytes.toString('utf8') : '';
    return stripAnsi(this.display.all().toString('utf8'));
  }
}
