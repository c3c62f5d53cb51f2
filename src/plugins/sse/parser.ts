import type { StreamEvent } from '../../core/model.js';

/**
 * Incremental `text/event-stream` parser following the WHATWG rules: lines end in CRLF, LF or
 * CR (possibly split across chunks); `:` lines are comments; `data` lines join with `\n`; a
 * blank line dispatches; an event without data is dropped. `retry` is ignored: reqflow does not
 * reconnect (a dropped stream is an error the user should see).
 */
export class EventStreamParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private started = false;
  /** A chunk ended in CR: a LF at the start of the next chunk belongs to the same line end. */
  private pendingCr = false;
  private data: string[] = [];
  private eventType = '';
  /** Only the event that carried an `id` shows it (the standard's last-event-ID matters for reconnects, which reqflow does not do). */
  private id: string | undefined;

  /** Feeds bytes; returns the events completed by them, in order. */
  push(chunk: Uint8Array | string): StreamEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const events: StreamEvent[] = [];
    let start = 0;
    for (;;) {
      const end = this.lineEnd(start);
      if (end < 0) break;
      const line = this.buffer.slice(start, end);
      if (this.buffer[end] === '\r') {
        if (end + 1 >= this.buffer.length) this.pendingCr = true;
        start = this.buffer[end + 1] === '\n' ? end + 2 : end + 1;
      } else start = end + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private lineEnd(from: number): number {
    for (let i = from; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c === '\n' || c === '\r') return i;
    }
    return -1;
  }

  private line(line: string): StreamEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.id = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored, as the standard says
    }
    return undefined;
  }

  private dispatch(): StreamEvent | undefined {
    const hadData = this.data.length > 0;
    const event: StreamEvent = { data: this.data.join('\n') };
    if (this.eventType !== '') event.event = this.eventType;
    if (this.id !== undefined && this.id !== '') event.id = this.id;
    this.data = [];
    this.eventType = '';
    this.id = undefined;
    return hadData ? event : undefined;
  }
}
