import { NetworkError } from '../../core/errors/index.js';
import type { StreamEvent } from '../../core/model.js';

/** The largest event (its lines so far) a stream may send: an endless one must not eat the memory. */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * Incremental `text/event-stream` parser following the WHATWG rules: lines end in CRLF, LF or
 * CR (possibly split across chunks); `:` lines are comments; `data` lines join with `\n`; a
 * blank line dispatches; an event without data is dropped. `retry` is ignored: reqflow does not
 * reconnect (a dropped stream is an error the user should see).
 */
export class EventStreamParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of a line whose end has not arrived yet, in pieces (joined once, when it ends: linear time). */
  private partial: string[] = [];
  private partialSize = 0;
  private started = false;
  /** A chunk ended in CR: a LF at the start of the next chunk belongs to the same line end. */
  private pendingCr = false;
  private data: string[] = [];
  /** Characters of `data` so far, against {@link MAX_EVENT_BYTES}. */
  private dataSize = 0;
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
    const events: StreamEvent[] = [];
    const ends = /[\r\n]/g;
    let start = 0;
    for (let match = ends.exec(text); match; match = ends.exec(text)) {
      const end = match.index;
      const piece = text.slice(start, end);
      const line = this.partial.length > 0 ? this.partial.join('') + piece : piece;
      this.partial = [];
      this.partialSize = 0;
      if (text[end] === '\r') {
        if (end + 1 >= text.length) this.pendingCr = true;
        start = text[end + 1] === '\n' ? end + 2 : end + 1;
      } else start = end + 1;
      ends.lastIndex = start;
      const event = this.line(line);
      if (event) events.push(event);
    }
    if (start < text.length) {
      this.partial.push(text.slice(start));
      this.partialSize += text.length - start;
    }
    if (this.partialSize + this.dataSize > MAX_EVENT_BYTES) {
      throw new NetworkError(`the server sent an event larger than ${MAX_EVENT_BYTES / 1024 / 1024} MiB`, { hint: 'an event that never ends: reqflow stops reading the stream there' });
    }
    return events;
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
        this.dataSize += value.length + 1;
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
    this.dataSize = 0;
    this.eventType = '';
    this.id = undefined;
    return hadData ? event : undefined;
  }
}
