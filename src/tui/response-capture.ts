import type { OutputSink, ResponseInfo } from '../core/model.js';

/** Status line facts of a response, as the response pane shows them. */
export interface ResponseMeta {
  status: number;
  statusText: string;
  httpVersion: string;
  durationMs: number;
  size: number;
  headers: Record<string, string | string[]>;
}

/** Most text a pane keeps: a stream keeps its newest events, a body its beginning. */
const CAPTURE_LIMIT = 2 * 1024 * 1024;

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
  private text = '';
  private dropped = false;

  constructor(private readonly onChange: () => void = () => undefined) {}

  out(chunk: string | Uint8Array): void {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.text += text;
    if (this.text.length > CAPTURE_LIMIT) {
      // Streams keep the tail (newest events); a body keeps its head.
      this.text = this.streaming ? this.text.slice(this.text.length - CAPTURE_LIMIT) : this.text.slice(0, CAPTURE_LIMIT);
      this.dropped = true;
    }
    this.onChange();
  }

  err(line: string): void {
    this.warnings.push(stripAnsi(line).replace(/^reqflow: warning: /, ''));
    this.onChange();
  }

  setResponse(response: ResponseInfo): void {
    this.response = response;
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

  /** What the pane shows (ANSI colours kept: the pane renders them). */
  shown(): string {
    return this.text;
  }

  /** True when the shown text lost a part to the size limit. */
  get truncated(): boolean {
    return this.dropped;
  }

  /** What `y` copies: the body as received, else the shown text without colours. */
  copyText(): string {
    return this.copySource ?? stripAnsi(this.text);
  }
}
