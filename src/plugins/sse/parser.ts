import { StreamViolation } from '../../core/errors/index.js';
import type { StreamEvent } from '../../core/model.js';
import { MAX_EVENT_BYTES } from '../../core/stream-limits.js';

/** A buffer grown past this by one large event is let go once the event is done. */
const KEPT_BUFFER_BYTES = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Bytes appended into one buffer, grown by doubling up to the event limit. An event's lines are
 * held as the bytes they are: kept as strings, each line cost tens of bytes however short (16 MiB
 * of empty `data` lines took 450 MB), and a slice of a network chunk kept the whole chunk alive.
 */
class ByteBuilder {
  private buffer = Buffer.alloc(0);
  length = 0;

  append(from: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    if (end - start > 32) this.length += from.copy(this.buffer, this.length, start, end);
    else for (let i = start; i < end; i++) this.buffer[this.length++] = from[i] as number; // a native call costs more than a short line
  }

  appendByte(byte: number): void {
    this.reserve(1);
    this.buffer[this.length++] = byte;
  }

  private reserve(more: number): void {
    const needed = this.length + more;
    if (needed <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.min(Math.max(needed, this.buffer.length * 2, 256), Math.max(needed, MAX_EVENT_BYTES)));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
    if (this.buffer.length > KEPT_BUFFER_BYTES) this.buffer = Buffer.alloc(0);
  }
}

/**
 * Incremental `text/event-stream` parser following the WHATWG rules: lines end in CRLF, LF or
 * CR (possibly split across chunks); `:` lines are comments; `data` lines join with `\n`; a
 * blank line dispatches; an event without data is dropped. `retry` is ignored: reqflow does not
 * reconnect (a dropped stream is an error the user should see). Lines are split as bytes (CR and
 * LF never occur inside a UTF-8 character) and text is decoded only where it is kept (as
 * TextDecoder does: U+FFFD for each bad sequence, a BOM inside a value kept).
 */
export class EventStreamParser {
  /** The start of a line whose end has not arrived yet. */
  private readonly partial = new ByteBuilder();
  /** The event's `data` lines so far, joined with LF. */
  private readonly data = new ByteBuilder();
  private hasData = false;
  /** No line has ended yet: the first may start with a BOM. */
  private firstLine = true;
  /** A chunk ended in CR: a LF at the start of the next chunk belongs to the same line end. */
  private pendingCr = false;
  private eventType = '';
  /** Only the event that carried an `id` shows it (the standard's last-event-ID matters for reconnects, which reqflow does not do). */
  private id: string | undefined;

  /** Feeds bytes; returns the events completed by them, in order. */
  push(chunk: Uint8Array | string): StreamEvent[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const end = bytes.length;
    const events: StreamEvent[] = [];
    let start = 0;
    if (end > 0) {
      if (this.pendingCr && bytes[0] === LF) start = 1;
      this.pendingCr = false;
    }
    while (start < end) {
      if (this.partial.length === 0 && this.idle()) {
        // Blank lines with no event begun do nothing: skip a run of them at once.
        const from = start;
        while (start < end && (bytes[start] === LF || bytes[start] === CR)) start++;
        if (start > from) this.firstLine = false;
        if (start === end) {
          this.pendingCr = bytes[end - 1] === CR;
          break;
        }
      }
      let lineEnd = start;
      while (lineEnd < end && bytes[lineEnd] !== LF && bytes[lineEnd] !== CR) lineEnd++;
      if (lineEnd === end) {
        this.hold(end - start + this.partial.length);
        this.partial.append(bytes, start, end);
        break;
      }
      let event: StreamEvent | undefined;
      if (this.partial.length > 0) {
        this.hold(lineEnd - start + this.partial.length);
        this.partial.append(bytes, start, lineEnd);
        const line = this.partial.bytes();
        event = this.line(line, 0, line.length);
        this.partial.clear();
      } else event = this.line(bytes, start, lineEnd);
      if (event) events.push(event);
      if (bytes[lineEnd] === CR) {
        if (lineEnd + 1 === end) this.pendingCr = true;
        start = bytes[lineEnd + 1] === LF ? lineEnd + 2 : lineEnd + 1;
      } else start = lineEnd + 1;
    }
    return events;
  }

  /** No event begun: a blank line now would dispatch nothing and reset nothing. */
  private idle(): boolean {
    return !this.hasData && this.eventType === '' && this.id === undefined;
  }

  /** Throws when the event would hold more than {@link MAX_EVENT_BYTES} with `line` more bytes of the current line. */
  private hold(line: number): void {
    if (this.data.length + this.eventType.length + (this.id?.length ?? 0) + line <= MAX_EVENT_BYTES) return;
    throw new StreamViolation(`the server sent an event larger than ${MAX_EVENT_BYTES / 1024 / 1024} MiB`, { hint: 'an event that never ends: reqflow stops reading the stream there' });
  }

  /** One line, `bytes[start..end)`: read now, never kept (it may be a network chunk or the partial line's buffer). */
  private line(bytes: Buffer, start: number, end: number): StreamEvent | undefined {
    if (this.firstLine) {
      this.firstLine = false;
      if (end - start >= BOM.length && bytes.compare(BOM, 0, BOM.length, start, start + BOM.length) === 0) start += BOM.length;
    }
    if (start === end) return this.dispatch();
    if (bytes[start] === COLON) return undefined;
    let nameEnd = start;
    while (nameEnd < end && bytes[nameEnd] !== COLON) nameEnd++; // not indexOf: it would search the rest of the chunk, line after line
    let value = nameEnd === end ? end : nameEnd + 1;
    if (value < end && bytes[value] === SPACE) value++;
    switch (fieldName(bytes, start, nameEnd)) {
      case 'data':
        this.hold(end - value + 1);
        if (this.hasData) this.data.appendByte(LF);
        this.data.append(bytes, value, end);
        this.hasData = true;
        break;
      case 'event':
        this.eventType = bytes.toString('utf8', value, end);
        break;
      case 'id': {
        const id = bytes.toString('utf8', value, end);
        if (!id.includes('\u0000')) this.id = id;
        break;
      }
      default:
        break; // `retry` and unknown fields are ignored, as the standard says
    }
    return undefined;
  }

  private dispatch(): StreamEvent | undefined {
    const event: StreamEvent | undefined = this.hasData ? { data: this.data.bytes().toString('utf8') } : undefined;
    if (event && this.eventType !== '') event.event = this.eventType;
    if (event && this.id !== undefined && this.id !== '') event.id = this.id;
    this.data.clear();
    this.hasData = false;
    this.eventType = '';
    this.id = undefined;
    return event;
  }
}

const FIELDS = (['data', 'event', 'id'] as const).map((name) => ({ name, bytes: Buffer.from(name, 'latin1') }));

/** The field `bytes[start..end)` names, when reqflow reads it: compared as bytes, with no string made for each line. */
function fieldName(bytes: Buffer, start: number, end: number): 'data' | 'event' | 'id' | undefined {
  for (const field of FIELDS) {
    if (field.bytes.length !== end - start) continue;
    let i = 0;
    while (i < field.bytes.length && bytes[start + i] === field.bytes[i]) i++;
    if (i === field.bytes.length) return field.name;
  }
  return undefined;
}
