import type { Writable } from 'node:stream';
import { NetworkError } from '../errors/index.js';
import type { RequestContext } from '../pipeline.js';
import type { Palette } from './colors.js';
import { JsonEncodingError, JsonHoldLimitError, JsonPrettyPrinter, JsonSyntaxError } from './json-stream-pretty.js';

/**
 * Nothing is printed until this much of the body has been read (or all of it): a body that is
 * not JSON after all is then shown as plain text, exactly as before streaming existed. Past it,
 * memory stays bounded, so a late syntax error can only be reported where it happens.
 */
export const VALIDATION_WINDOW = 1 << 20;

export interface TextOutput {
  write(text: string | Uint8Array): void;
  /** Resolves once the output can take more (back-pressure); may be absent. */
  drained?(): Promise<void>;
}

export interface JsonBodyOptions {
  colors: Palette;
  warn(message: string): void;
  /** Largest object held in memory for key reordering (`--max-size`). */
  holdLimit: number;
}

/**
 * Prints a JSON body pretty, streaming, in constant memory: the output equals
 * `JSON.stringify(JSON.parse(body), null, 2)` plus a newline. A body that is not JSON (or not
 * UTF-8) is shown as text with a warning, as the non-streaming renderer did.
 */
export async function printJsonBody(source: AsyncIterable<Uint8Array>, output: TextOutput, options: JsonBodyOptions): Promise<void> {
  let held: Uint8Array[] | undefined = [];
  let raw: Uint8Array[] | undefined = [];
  let rawBytes = 0;
  let bytesBefore = 0;
  let chunk: Uint8Array = new Uint8Array(0);
  const printer = new JsonPrettyPrinter((bytes) => (held ? held.push(bytes) : output.write(bytes)), { colors: options.colors, holdLimit: options.holdLimit, onWarning: options.warn });
  const release = (): void => {
    for (const bytes of held ?? []) output.write(bytes);
    held = undefined;
    raw = undefined;
  };
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (next.value.length === 0) continue;
      bytesBefore += chunk.length;
      chunk = next.value;
      if (raw) {
        raw.push(chunk);
        rawBytes += chunk.length;
      }
      printer.push(chunk);
      if (raw && rawBytes > VALIDATION_WINDOW) release();
      if (!held) await output.drained?.();
    }
    if (bytesBefore + chunk.length === 0) return; // an empty body prints nothing
    printer.end();
    release();
    output.write('\n');
  } catch (error) {
    if (error instanceof JsonHoldLimitError) {
      throw new NetworkError(`response is larger than --max-size (${options.holdLimit} bytes) for pretty-printing: ${error.message}`, { hint: 'raise --max-size, or stream it with -o raw' });
    }
    if (!(error instanceof JsonSyntaxError) && !(error instanceof JsonEncodingError)) throw error;
    const reason = error instanceof JsonEncodingError ? 'the body is not valid UTF-8' : /empty/.test(error.message) ? 'the body is empty' : `the body is not valid JSON (${error.message})`;
    if (raw) {
      options.warn(`response says JSON but ${reason}; showing it as text`);
      await showAsText(raw, iterator, output);
    } else {
      printer.flushAll();
      output.write('\n');
      options.warn(`response says JSON but ${reason}; the rest of it is shown as received`);
      if (error instanceof JsonSyntaxError) output.write(chunk.subarray(Math.max(error.offset - bytesBefore, 0)));
      await copyRest(iterator, output);
    }
  }
}

/** The body so far and the rest of it, as text (invalid UTF-8 shown as U+FFFD). */
async function showAsText(head: Uint8Array[], rest: AsyncIterator<Uint8Array>, output: TextOutput): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  let last = '';
  const write = (text: string): void => {
    if (text === '') return;
    output.write(text);
    last = text;
  };
  for (const chunk of head) write(decoder.decode(chunk, { stream: true }));
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    write(decoder.decode(next.value, { stream: true }));
    await output.drained?.();
  }
  write(decoder.decode());
  if (!last.endsWith('\n')) output.write('\n');
}

async function copyRest(rest: AsyncIterator<Uint8Array>, output: TextOutput): Promise<void> {
  let last: Uint8Array | undefined;
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    if (next.value.length === 0) continue;
    output.write(next.value);
    last = next.value;
    await output.drained?.();
  }
  if (last && last[last.length - 1] !== 0x0a) output.write('\n');
}

/** Resolves when `stream` can take more data, or when it is gone (closed, failed, cancelled). */
function drained(stream: Writable, signal: AbortSignal): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed || signal.aborted) return Promise.resolve();
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

async function* once(body: Uint8Array): AsyncIterable<Uint8Array> {
  yield body;
}

/** The render stage's use of {@link printJsonBody}: the response's body to the run's output. */
export async function renderJsonBody(ctx: RequestContext, colors: Palette): Promise<void> {
  const res = ctx.response;
  if (!res) return;
  const bodyStream = res.body === undefined ? res.stream : undefined;
  const source: AsyncIterable<Uint8Array> = bodyStream ?? once(await ctx.readBody());
  const stream = ctx.output.stream as Writable | undefined;
  await printJsonBody(
    source,
    {
      write: (text) => ctx.output.out(text),
      ...(stream ? { drained: () => drained(stream, ctx.signal) } : {}),
    },
    { colors, warn: (message) => ctx.warn(message), holdLimit: ctx.options.maxSizeBytes },
  );
}
