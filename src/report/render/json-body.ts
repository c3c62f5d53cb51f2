import { isUtf8 } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import { parseJsonExact, stringifyJson } from '../../core/json-exact.js';
import type { ResponseView } from '../reporter.js';
import { isPlain, type Palette } from './colors.js';
import type { BodyOutput, JsonBodyOptions, JsonBodyPrinter } from './json-stream-render.js';
import type { SafeText } from './safe-text.js';
import { visibleJson } from './visible.js';

/**
 * A plain-text body up to this size is printed with `JSON.stringify(JSON.parse(body), null, 2)`
 * once it has all arrived: the same output as the streaming printer (its contract), several
 * times faster for the small responses a batch of requests is made of. Anything it cannot take
 * (invalid JSON or UTF-8, nesting too deep) goes through the streaming printer as before.
 */
const SMALL_BODY = 64 * 1024;

/** `JSON.stringify(JSON.parse(body), null, 2)` with numbers as written (the printer's output), or undefined for a body it cannot take as is. */
export function smallJsonText(body: Buffer): string | undefined {
  if (!isUtf8(body)) return undefined; // toString would hide bad bytes; the printer reports them
  try {
    const { value, lossless } = parseJsonExact(body.toString('utf8'));
    return visibleJson(stringifyJson(value, lossless, 2)); // C1 and bidi controls escaped, as the printer does
  } catch {
    return undefined; // not JSON, or nested deeper than the call stack: the printer explains or copes
  }
}

/**
 * A JSON body on its way to the output: a small plain one (nearly every response) is kept whole
 * and printed by {@link smallJsonText}; anything else goes through {@link JsonBodyPrinter}, whose
 * streaming printer (~20 kB of code) is imported only then, so a plain GET never reads it
 * (test/plain-path-budget.test.ts). `push` and `end` are synchronous except while the printer
 * loads: they return a promise then, and what follows waits for it.
 */
class JsonBody {
  /** The small body so far; undefined once it goes to the printer (or with colours: never kept). */
  private small: { chunks: Uint8Array[]; bytes: number } | undefined;
  private printer: JsonBodyPrinter | undefined;
  /** The printer's loading and the steps queued behind it, in order. */
  private pending: Promise<void> | undefined;

  constructor(
    private readonly output: BodyOutput,
    private readonly options: JsonBodyOptions,
  ) {
    if (isPlain(options.colors)) this.small = { chunks: [], bytes: 0 };
  }

  push(chunk: Uint8Array): Promise<void> | undefined {
    if (chunk.length === 0) return undefined;
    if (!this.small) return this.withPrinter((printer) => printer.push(chunk));
    this.small.chunks.push(chunk);
    this.small.bytes += chunk.length;
    if (this.small.bytes <= SMALL_BODY) return undefined;
    const { chunks } = this.small;
    this.small = undefined;
    return this.withPrinter((printer) => chunks.forEach((c) => printer.push(c)));
  }

  end(): Promise<void> | undefined {
    const small = this.small;
    this.small = undefined;
    if (small) {
      if (small.bytes === 0) return undefined; // an empty body prints nothing
      // One chunk (a small response nearly always): read in place, not copied.
      const only = small.chunks.length === 1 ? small.chunks[0] : undefined;
      const printed = smallJsonText(Buffer.isBuffer(only) ? only : Buffer.concat(small.chunks, small.bytes));
      // Written as the string: the output encodes it once, with no Buffer of the text in between.
      if (printed !== undefined) return void this.output.write(`${printed}\n`);
      return this.withPrinter((printer) => {
        small.chunks.forEach((c) => printer.push(c));
        printer.end();
      });
    }
    if (!this.printer && !this.pending) return undefined; // nothing came: an empty body prints nothing
    return this.withPrinter((printer) => printer.end());
  }

  private withPrinter(step: (printer: JsonBodyPrinter) => void): Promise<void> | undefined {
    if (this.printer && !this.pending) return void step(this.printer);
    const before =
      this.pending ??
      import('./json-stream-render.js').then(({ JsonBodyPrinter }) => {
        this.printer = new JsonBodyPrinter(this.output, this.options);
      });
    const pending: Promise<void> = before.then(() => {
      if (this.pending === pending) this.pending = undefined;
      step(this.printer as JsonBodyPrinter);
    });
    this.pending = pending;
    return pending;
  }
}

/**
 * Feeds a body stream to a printer with 'data' events (the cheapest way to read a stream),
 * pausing while the output catches up, or while the streaming printer loads.
 */
function drive(source: Readable, body: JsonBody, output: Writable | undefined, signal: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const cleanup = (): void => {
      source.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const fail = (error: unknown): void => {
      cleanup();
      source.destroy();
      reject(error);
    };
    const onEnd = (): void => {
      cleanup();
      try {
        const ending = body.end();
        if (ending) ending.then(resolvePromise, reject);
        else resolvePromise();
      } catch (error) {
        reject(error);
      }
    };
    const flowOn = (): void => {
      if (output?.writableNeedDrain && !output.destroyed && !signal.aborted) {
        source.pause();
        void drained(output, signal).then(() => source.resume());
      }
    };
    const onData = (chunk: Buffer): void => {
      let loading: Promise<void> | undefined;
      try {
        loading = body.push(chunk);
      } catch (error) {
        fail(error);
        return;
      }
      if (!loading) return flowOn();
      source.pause();
      loading.then(() => {
        source.resume();
        flowOn();
      }, fail);
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

/** The render stage's JSON body: the response's body to the run's output, pretty. */
export async function renderJsonBody(ctx: ResponseView, colors: Palette, safeText?: SafeText): Promise<void> {
  const res = ctx.response;
  if (!res) return;
  const body = new JsonBody({ write: (data) => ctx.output.out(data) }, { colors, warn: (message) => ctx.warn(message), holdLimit: ctx.options.maxSizeBytes, ...(safeText ? { safeText } : {}) });
  if (res.body !== undefined || !res.stream) {
    await body.push(await ctx.readBody());
    await body.end();
    return;
  }
  // A body that failed before anyone read it (a connection error in the head's packet): that failure is the answer.
  if (res.stream.errored) throw res.stream.errored;
  if (res.stream.readableEnded || res.stream.destroyed) throw new Error('response body was already consumed by another stage');
  await drive(res.stream, body, ctx.output.stream as Writable | undefined, ctx.signal);
}
