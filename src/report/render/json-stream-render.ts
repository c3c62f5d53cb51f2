import { NetworkError } from '../../core/errors/index.js';
import { MAX_SIZE_HINT } from '../../core/read-body.js';
import type { Palette } from './colors.js';
import { JsonEncodingError, JsonHoldLimitError, JsonNumberLimitError, JsonPrettyPrinter, JsonSyntaxError } from './json-stream-pretty.js';
import { SafeTextDecoder, type SafeText } from './safe-text.js';

/**
 * Nothing is printed until this much of the body has been read (or all of it): a body that is
 * not JSON after all is then shown as plain text, exactly as before streaming existed. Past it,
 * memory stays bounded, so a late syntax error can only be reported where it happens.
 */
export const VALIDATION_WINDOW = 1 << 20;

const NEWLINE = Buffer.from('\n');

export interface BodyOutput {
  write(data: string | Uint8Array): void;
}

export interface JsonBodyOptions {
  colors: Palette;
  warn(message: string): void;
  /** Largest object held in memory for key reordering, and longest number (`--max-size`). */
  holdLimit: number;
  /** What a body that is not JSON after all goes through (the CLI makes control characters visible). */
  safeText?: SafeText;
}

type Mode = 'pretty' | 'text';

/** A decoder for a body that starts with a UTF-16 byte-order mark (which it drops), else undefined. */
function utf16Decoder(head: Uint8Array): TextDecoder | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be');
  return undefined;
}

/**
 * Prints a JSON body pretty as its chunks arrive, in constant memory: the output equals
 * `JSON.stringify(JSON.parse(body), null, 2)` plus a newline (numbers as written, terminal
 * controls escaped: see json-stream-pretty.ts). A body that is not JSON (or not
 * UTF-8) is shown as text with a warning, through `safeText` as any text body; an empty body
 * prints nothing. Feed it with {@link push} and {@link end} (synchronous: the caller handles
 * back-pressure between chunks). Loaded by the render stage (json-body.ts) only for what a small
 * plain body's shortcut cannot print: colours, bodies over 64 KiB, bodies that are not JSON.
 */
export class JsonBodyPrinter {
  private mode: Mode = 'pretty';
  /** Output and input kept while the body is still within {@link VALIDATION_WINDOW}. */
  private held: Uint8Array[] | undefined = [];
  private raw: Uint8Array[] | undefined = [];
  private rawBytes = 0;
  private bytesBefore = 0;
  private sawBytes = false;
  private lastByte = -1;
  private streaming: JsonPrettyPrinter | undefined;
  /** Set when the body starts with a UTF-16 byte-order mark: its chunks are read as UTF-8 text through it. */
  private utf16: TextDecoder | undefined;
  private readonly text: SafeTextDecoder;

  constructor(
    private readonly output: BodyOutput,
    private readonly options: JsonBodyOptions,
  ) {
    this.text = new SafeTextDecoder(options.safeText ?? ((text) => text), new TextDecoder('utf-8'));
  }

  /** Made on first use: an empty body never needs it. */
  private get printer(): JsonPrettyPrinter {
    this.streaming ??= new JsonPrettyPrinter((bytes) => (this.held ? this.held.push(bytes) : this.write(bytes)), { colors: this.options.colors, holdLimit: this.options.holdLimit, onWarning: this.options.warn });
    return this.streaming;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    // JSON in UTF-16 with its byte-order mark and no charset named: read as -o json and the
    // text view read it (charset.ts), not as bytes that are "not valid UTF-8".
    if (!this.sawBytes) this.utf16 = utf16Decoder(chunk);
    this.pushUtf8(this.utf16 ? Buffer.from(this.utf16.decode(chunk, { stream: true })) : chunk);
  }

  private pushUtf8(chunk: Uint8Array): void {
    this.sawBytes = true;
    if (chunk.length === 0) return;
    if (this.mode !== 'pretty') {
      this.passThrough(chunk);
      return;
    }
    if (this.raw) {
      this.raw.push(chunk);
      this.rawBytes += chunk.length;
    }
    try {
      this.printer.push(chunk);
    } catch (error) {
      this.fail(error, chunk);
      return;
    }
    this.bytesBefore += chunk.length;
    if (this.raw && this.rawBytes > VALIDATION_WINDOW) {
      const held = this.held ?? [];
      this.held = undefined;
      this.raw = undefined;
      for (const bytes of held) this.write(bytes);
    }
  }

  end(): void {
    if (!this.sawBytes) return; // an empty body prints nothing
    if (this.utf16) this.pushUtf8(Buffer.from(this.utf16.decode()));
    if (this.mode === 'pretty') {
      try {
        this.printer.end();
      } catch (error) {
        this.fail(error, undefined);
      }
    }
    if (this.mode === 'pretty') {
      // A body within the validation window leaves in one write, newline included.
      const held = this.held;
      this.held = undefined;
      this.write(held ? Buffer.concat([...held, NEWLINE]) : NEWLINE);
      return;
    }
    this.writeText(this.text.end());
    if (this.lastByte !== 0x0a) this.write(NEWLINE);
  }

  private write(data: Uint8Array): void {
    if (data.length === 0) return;
    this.output.write(data);
    this.lastByte = data[data.length - 1] as number;
  }

  private writeText(text: string): void {
    if (text !== '') this.write(Buffer.from(text));
  }

  private passThrough(chunk: Uint8Array): void {
    this.writeText(this.text.write(chunk));
  }

  /** Not JSON after all: says why, then shows the body as text (or, past the window, what was valid pretty and the rest as text). */
  private fail(error: unknown, chunk: Uint8Array | undefined): void {
    if (error instanceof JsonHoldLimitError) {
      throw new NetworkError(`response is larger than --max-size (${this.options.holdLimit} bytes) for pretty-printing: ${error.message}`, { hint: MAX_SIZE_HINT });
    }
    if (error instanceof JsonNumberLimitError) {
      throw new NetworkError(`response holds ${error.message}: not pretty-printed`, { hint: 'stream it with -o raw' });
    }
    if (!(error instanceof JsonSyntaxError) && !(error instanceof JsonEncodingError)) throw error;
    const reason = error instanceof JsonEncodingError ? 'the body is not valid UTF-8' : /empty/.test(error.message) ? 'the body is empty' : `the body is not valid JSON (${error.message})`;
    if (this.raw) {
      this.options.warn(`response says JSON but ${reason}; showing it as text`);
      this.mode = 'text';
      const raw = this.raw;
      this.held = undefined;
      this.raw = undefined;
      for (const bytes of raw) this.passThrough(bytes);
      return;
    }
    this.printer.flushAll();
    this.write(NEWLINE);
    this.options.warn(`response says JSON but ${reason}; the rest of it is shown as text`);
    this.mode = 'text';
    if (chunk && error instanceof JsonSyntaxError) this.passThrough(chunk.subarray(Math.max(error.offset - this.bytesBefore, 0)));
  }
}
