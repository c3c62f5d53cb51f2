import { parseJsonExact, stringifyJson } from '../../core/json-exact.js';
import type { Readable, Writable } from 'node:stream';
import { NetworkError } from '../../core/errors/index.js';
import { MAX_SIZE_HINT } from '../../core/read-body.js';
import type { ResponseView } from '../reporter.js';
import { isUtf8 } from 'node:buffer';
import { isPlain, type Palette } from './colors.js';
import { JsonEncodingError, JsonHoldLimitError, JsonNumberLimitError, JsonPrettyPrinter, JsonSyntaxError } from './json-stream-pretty.js';
import { SafeTextDecoder, type SafeText } from './safe-text.js';
import { visibleJson } from './visible.js';

/**
 * Nothing is printed until this much of the body has been read (or all of it): a body that is
 * not JSON after all is then shown as plain text, exactly as before streaming existed. Past it,
 * memory stays bounded, so a late syntax error can only be reported where it happens.
 */
export const VALIDATION_WINDOW = 1 << 20;

/**
 * A plain-text body up to this size is printed with `JSON.stringify(JSON.parse(body), null, 2)`
 * once it has all arrived: the same output as the streaming printer (its contract), several
 * times faster for the small responses a batch of requests is made of. Anything it cannot take
 * (invalid JSON or UTF-8, nesting too deep) goes through the streaming printer as before.
 */
const SMALL_BODY = 64 * 1024;

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

/**
 * Prints a JSON body pretty as its chunks arrive, in constant memory: the output equals
 * `JSON.stringify(JSON.parse(body), null, 2)` plus a newline (numbers as written, terminal
 * controls escaped: see json-stream-pretty.ts). A body that is not JSON (or not
 * UTF-8) is shown as text with a warning, through `safeText` as any text body; an empty body
 * prints nothing. Feed it with {@link push} and {@link end} (synchronous: the caller handles
 * back-pressure between chunks).
 */
export class JsonBodyPrinter {
  private mode: Mode = 'pretty';
  /** A small plain body, kept whole until its end (see {@link SMALL_BODY}); undefined once streaming. */
  private small: { chunks: Uint8Array[]; bytes: number } | undefined;
  /** Output and input kept while the body is still within {@link VALIDATION_WINDOW}. */
  private held: Uint8Array[] | undefined = [];
  private raw: Uint8Array[] | undefined = [];
  private rawBytes = 0;
  private bytesBefore = 0;
  private sawBytes = false;
  private lastByte = -1;
  private streaming: JsonPrettyPrinter | undefined;
  private readonly text: SafeTextDecoder;

  constructor(
    private readonly output: BodyOutput,
    private readonly options: JsonBodyOptions,
  ) {
    if (isPlain(options.colors)) this.small = { chunks: [], bytes: 0 };
    this.text = new SafeTextDecoder(options.safeText ?? ((text) => text), new TextDecoder('utf-8'));
  }

  /** Made on first use: a small plain body (the common case in a batch) never needs it. */
  private get printer(): JsonPrettyPrinter {
    this.streaming ??= new JsonPrettyPrinter((bytes) => (this.held ? this.held.push(bytes) : this.write(bytes)), { colors: this.options.colors, holdLimit: this.options.holdLimit, onWarning: this.options.warn });
    return this.streaming;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.sawBytes = true;
    if (this.small) {
      this.small.chunks.push(chunk);
      this.small.bytes += chunk.length;
      if (this.small.bytes > SMALL_BODY) this.streamSmallBody();
      return;
    }
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
    if (this.small) {
      const printed = stringifiedJson(Buffer.concat(this.small.chunks, this.small.bytes));
      if (printed !== undefined) {
        this.small = undefined;
        this.write(Buffer.from(`${printed}\n`));
        return;
      }
      this.streamSmallBody();
    }
    if (this.mode === 'pretty') {
      try {
        this.printer.end();
      } catch (error) {
        this.fail(error, undefined);
      }
    }
    if (this.mode === 'pretty') {
      // Small bodies (the usual case) leave in one write, newline included.
      const held = this.held;
      this.held = undefined;
      this.write(held ? Buffer.concat([...held, NEWLINE]) : NEWLINE);
      return;
    }
    this.writeText(this.text.end());
    if (this.lastByte !== 0x0a) this.write(NEWLINE);
  }

  /** The kept small body goes through the streaming printer after all. */
  private streamSmallBody(): void {
    const chunks = this.small?.chunks ?? [];
    this.small = undefined;
    for (const chunk of chunks) this.push(chunk);
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

/** `JSON.stringify(JSON.parse(body), null, 2)` with numbers as written (the printer's output), or undefined for a body it cannot take as is. */
function stringifiedJson(body: Buffer): string | undefined {
  if (!isUtf8(body)) return undefined; // toString would hide bad bytes; the printer reports them
  try {
    const { value, lossless } = parseJsonExact(body.toString('utf8'));
    return visibleJson(stringifyJson(value, lossless, 2)); // C1 and bidi controls escaped, as the printer does
  } catch {
    return undefined; // not JSON, or nested deeper than the call stack: the printer explains or copes
  }
}

/**
 * Feeds a body stream to a printer with 'data' events (the cheapest way to read a stream),
 * pausing while the output catches up.
 */
function drive(source: Readable, printer: JsonBodyPrinter, output: Writable | undefined, signal: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const cleanup = (): void => {
      source.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onEnd = (): void => {
      cleanup();
      try {
        printer.end();
        resolvePromise();
      } catch (error) {
        reject(error);
      }
    };
    const onData = (chunk: Buffer): void => {
      try {
        printer.push(chunk);
      } catch (error) {
        cleanup();
        source.destroy();
        reject(error);
        return;
      }
      if (output?.writableNeedDrain && !output.destroyed && !signal.aborted) {
        source.pause();
        void drained(output, signal).then(() => source.resume());
      }
    };
    source.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

/** Resolves when `stream` can take more data, or when it is gone (closed, failed, cancelled). */
function drained(stream: Writable, signal: AbortSignal): Promise<void> {
  return new Promise((resolvePromise) => {
    const done = (): void => {
      stream.off('drain', done).off('close', done).off('error', done);
      signal.removeEventListener('abort', done);
      resolvePromise();
    };
    stream.on('drain', done).on('close', done).on('error', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The render stage's use of {@link JsonBodyPrinter}: the response's body to the run's output. */
export async function renderJsonBody(ctx: ResponseView, colors: Palette, safeText?: SafeText): Promise<void> {
  const res = ctx.response;
  if (!res) return;
  const printer = new JsonBodyPrinter({ write: (data) => ctx.output.out(data) }, { colors, warn: (message) => ctx.warn(message), holdLimit: ctx.options.maxSizeBytes, ...(safeText ? { safeText } : {}) });
  if (res.body !== undefined || !res.stream) {
    printer.push(await ctx.readBody());
    printer.end();
    return;
  }
  if (res.stream.readableEnded || res.stream.destroyed) throw new Error('response body was already consumed by another stage');
  await drive(res.stream, printer, ctx.output.stream as Writable | undefined, ctx.signal);
}
