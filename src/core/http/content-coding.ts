/**
 * Undoing a response's `Content-Encoding`, as browsers and curl do: each coding of the list in
 * turn (`gzip, br` was gzipped, then brotli'd), `deflate` zlib-wrapped or raw, and a body in a
 * coding reqflow cannot undo handed over as received (the send stage says so).
 */
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { lazyBuiltin } from '../lazy-builtin.js';
import { codedError } from './hop-failures.js';

type Zlib = typeof import('node:zlib');
/** A zlib or brotli decoder: `bytesWritten` counts the coded bytes it took. */
type Inner = Transform & { readonly bytesWritten: number };
type Headers = Readonly<Record<string, string | string[] | undefined>>;

const KNOWN = new Set(['gzip', 'x-gzip', 'deflate', 'br']);
/** curl's bound: each coding is a decoder's memory, and a 16 KiB header could name thousands. */
const MAX_CODINGS = 5;

/**
 * The codings applied, in the order the server applied them: the content codings, then the
 * transfer codings before `chunked` (`Transfer-Encoding: gzip, chunked`), which Node leaves in
 * place; `identity` means none.
 */
function codingsOf(headers: Headers): string[] {
  const codings: string[] = [];
  for (const name of ['content-encoding', 'transfer-encoding']) {
    const header = headers[name];
    if (header === undefined) continue;
    // A repeated header arrives as an array: the same list, written on two lines.
    for (const part of String(header).toLowerCase().split(',')) {
      const coding = part.trim();
      if (coding !== '' && coding !== 'identity' && coding !== 'chunked') codings.push(coding);
    }
  }
  return codings;
}

/** The coding of this response reqflow cannot undo (its body is then shown as received), if any. */
export function undecodedCoding(headers: Headers): string | undefined {
  const codings = codingsOf(headers);
  return codings.length <= MAX_CODINGS ? codings.find((coding) => !KNOWN.has(coding)) : undefined;
}

/** The body with its codings undone, last applied first (network-errors.ts words a body that does not decode). */
export function decodedBody(headers: Headers, body: Readable): Readable {
  const codings = codingsOf(headers);
  if (codings.length === 0 || codings.some((coding) => !KNOWN.has(coding))) return body;
  if (codings.length > MAX_CODINGS) {
    const refused = new PassThrough();
    body.resume();
    process.nextTick(() => refused.destroy(codedError(`more than ${MAX_CODINGS} content codings (${codings.join(', ')})`.slice(0, 200), 'REQFLOW_TOO_MANY_CODINGS')));
    return refused;
  }
  const zlib = lazyBuiltin<Zlib>('node:zlib');
  let stream = body;
  for (let i = codings.length - 1; i >= 0; i--) {
    const decoder = new Decoder(zlib, codings[i] ?? '');
    // The body's own failure (a reset) reaches the reader through every decoder.
    stream.on('error', (error) => decoder.destroy(error));
    stream = stream.pipe(decoder);
  }
  return stream;
}

/**
 * Bytes after the coded data's end (`gzip` then `GARBAGE`, zero padding, a second zlib stream):
 * no coding covers them, so the body cannot be shown as it was sent. curl refuses them (error
 * 23); Node's decoders stop at the end without a word, or for gzip read them as a member.
 */
function afterTheEnd(coding: string): NodeJS.ErrnoException {
  return codedError(coding, 'REQFLOW_AFTER_CODED_END');
}

/**
 * One coding undone, its decoder started by the body's first bytes: an empty body (HEAD, 304,
 * or a 200 with none) is empty, not "unexpected end of file". `deflate` is zlib-wrapped by the
 * standard (RFC 9110 §8.4.1.2), but servers send raw deflate too, and browsers and curl take
 * both: the first two bytes tell which (a zlib header says `CM = 8` and is a multiple of 31).
 * gzip's members follow one another (RFC 1952 §2.2): each is decoded.
 */
class Decoder extends Transform {
  private inner: Inner | undefined;
  private head: Buffer | undefined;
  /** Bytes handed to the decoder; it counts those it took (`bytesWritten`): fewer means bytes after the end. */
  private fed = 0;

  constructor(
    private readonly zlib: Zlib,
    private readonly coding: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.inner) {
      const head: Buffer = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      if (head.length < 2) return void ((this.head = head), done());
      this.head = undefined;
      chunk = head;
      this.inner = this.start(head);
    }
    const inner = this.inner;
    this.fed += chunk.length;
    // Node's decoder ends its output at the coded data's end and leaves what follows unread.
    inner.write(chunk, () => done(inner.bytesWritten < this.fed ? afterTheEnd(this.coding) : undefined));
  }

  override _flush(done: TransformCallback): void {
    if (!this.inner && !this.head) return done();
    const inner = this.inner ?? this.start(this.head ?? Buffer.alloc(0));
    if (this.head) inner.write(this.head);
    if (inner.readableEnded) return done();
    inner.once('end', () => done()).end();
  }

  /** Read from again: the decoder paused when this stream's buffer was full goes on. */
  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  private start(head: Buffer): Inner {
    const zlibWrapped = ((head[0] ?? 0) & 0x0f) === 8 && (((head[0] ?? 0) << 8) | (head[1] ?? 0)) % 31 === 0;
    const { zlib, coding } = this;
    const gzip = coding !== 'br' && coding !== 'deflate';
    const inner = coding === 'br' ? zlib.createBrotliDecompress() : gzip ? zlib.createGunzip() : zlibWrapped ? zlib.createInflate() : zlib.createInflateRaw();
    this.inner = inner;
    inner.on('data', (data: Buffer) => {
      if (!this.push(data)) inner.pause();
    });
    // A body that starts as gzip fails its "header check" only where a next member would begin:
    // bytes after the last member that are not one.
    const afterMembers = gzip && head[0] === 0x1f && head[1] === 0x8b;
    inner.on('error', (error) => this.destroy(afterMembers && error.message === 'incorrect header check' ? afterTheEnd(coding) : error));
    return inner;
  }
}
