/**
 * A large file included as it is (`< ./big.bin`), sent from the disk as the request goes out
 * instead of being read whole into memory (a 1 GiB upload took 2.1 GB). Loaded only for such a
 * body (core/stages/request-body.ts decides).
 *
 * What is sent is always the file that was resolved: each send opens it again (a redirect's, a
 * retry's, digest auth's second send) and goes on only while its identity, size and time are
 * those recorded — the `Content-Length` already said — and the last bytes go out only after one
 * more look, so a file that changed is never sent whole: exit 2 naming it, the request cut short.
 * A stage that reads `spec.body` (a signing plugin, GraphQL, a script) gets the bytes, read
 * whole then and sent as they were read: what it signed is what goes out.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { UsageError, fileErrorWords, isReqflowError } from './errors/index.js';
import { lazyBuiltin } from './lazy-builtin.js';
import type { FileBody, RequestSpec } from './model.js';

/** The bytes read and written at a time. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The chunks a send holds, each read into again once written out: memory stays these and the
 * connection's buffers, whatever the file's size (a fresh buffer per read left ~40 MB of them
 * to the collector on a 1 GiB upload).
 */
const CHUNKS = 4;

const NONE_SENT = 'none of its bytes were sent';
const CUT_SHORT = 'the request was cut short: the server did not get a whole body';

/** Never waits on a named pipe put at the path since it was resolved (its check then refuses it). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** `<file ./big.bin, 1073741824 bytes>`: what is shown in a file body's place (here and in `reqflow history show`). */
export function fileBodyPlaceholder(shown: string, bytes: number): string {
  return `<file ${shown}, ${bytes} bytes>`;
}

/** Writes `piece`; resolves once it is written out (its buffer free again) or `destination` is gone. */
function written(destination: Writable, piece: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      destination.off('close', done);
      resolve();
    };
    destination.on('close', done);
    destination.write(piece, done);
  });
}

/** What `spec.body` becomes once read or set: a plain value, and the file no longer the body. */
function settle(spec: RequestSpec, value: string | Buffer | undefined): void {
  delete spec.bodyFile;
  if (value === undefined) delete spec.body;
  else Object.defineProperty(spec, 'body', { value, writable: true, enumerable: true, configurable: true });
}

export class DiskFileBody implements FileBody {
  readonly byteLength: number;
  readonly placeholder: string;
  /** `spec.body`'s getter while the file is the body (tells a body some stage removed). */
  private accessor: (() => Buffer) | undefined;

  /** `where`: `(api.http:4)`, the include's place; `stat`: the file as the request was resolved. */
  constructor(
    readonly path: string,
    readonly shown: string,
    private readonly where: string,
    private readonly stat: Stats,
  ) {
    this.byteLength = stat.size;
    this.placeholder = fileBodyPlaceholder(shown, stat.size);
  }

  /** Makes the file `spec.body` (see `RequestSpec.bodyFile`): read whole by the first stage that reads it, replaced by one that sets it. */
  becomeBodyOf(spec: RequestSpec): void {
    const accessor = (): Buffer => {
      const bytes = this.readWhole('since the request was resolved', 'what reads the body would not get the bytes the request stands for');
      settle(spec, bytes);
      return bytes;
    };
    this.accessor = accessor;
    spec.bodyFile = this;
    Object.defineProperty(spec, 'body', { get: accessor, set: (value: string | Buffer | undefined) => settle(spec, value), enumerable: true, configurable: true });
  }

  stillBodyOf(spec: object): FileBody | undefined {
    return (spec as RequestSpec).bodyFile === this && Object.getOwnPropertyDescriptor(spec, 'body')?.get === this.accessor ? this : undefined;
  }

  text(): string {
    const bytes = this.readWhole('since it was sent', 'what the request sent is no longer there to read');
    try {
      return bytes.toString('utf8');
    } catch (error) {
      throw this.unreadable(error); // past the longest string V8 makes
    }
  }

  async unchanged(): Promise<void> {
    await (await this.open('before it was sent', NONE_SENT)).close();
  }

  writeTo(destination: Writable): void {
    this.send(destination).catch((error: unknown) => destination.destroy(error as Error));
  }

  /** The file opened, once seen to be the one resolved. */
  private async open(when: string, consequence: string): Promise<FileHandle> {
    let handle: FileHandle;
    try {
      handle = await lazyBuiltin<typeof import('node:fs/promises')>('node:fs/promises').open(this.path, OPEN_FLAGS);
    } catch (error) {
      throw this.unreadable(error);
    }
    try {
      this.check(await handle.stat(), when, consequence);
      return handle;
    } catch (error) {
      await handle.close();
      throw isReqflowError(error) ? error : this.unreadable(error);
    }
  }

  private async send(destination: Writable): Promise<void> {
    const handle = await this.open('before it was sent', NONE_SENT);
    try {
      const chunks: Buffer[] = [];
      const writes: Array<Promise<void>> = [];
      for (let at = 0, i = 0; at < this.byteLength; i++) {
        const slot = i % CHUNKS;
        await writes[slot]; // this chunk's last bytes are out
        if (destination.destroyed) return; // the request failed or was cancelled: its error is told there
        const chunk = (chunks[slot] ??= Buffer.allocUnsafe(CHUNK_BYTES));
        const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, this.byteLength - at), at);
        if (bytesRead === 0) throw this.changed('while it was sent', `it ended after ${at} bytes`, CUT_SHORT);
        at += bytesRead;
        const piece = chunk.subarray(0, bytesRead);
        if (at < this.byteLength) writes[slot] = written(destination, piece);
        else {
          // The last bytes go only once the file is seen unchanged: a body that changed is cut short, never completed.
          this.check(await handle.stat(), 'while it was sent', CUT_SHORT);
          destination.end(piece);
        }
      }
    } catch (error) {
      throw isReqflowError(error) ? error : this.unreadable(error);
    } finally {
      await handle.close();
    }
  }

  /** The whole file, read now (synchronously: a getter's), while it is the file resolved. */
  private readWhole(when: string, consequence: string): Buffer {
    let fd: number | undefined;
    try {
      fd = openSync(this.path, OPEN_FLAGS);
      this.check(fstatSync(fd), when, consequence);
      const bytes = Buffer.allocUnsafe(this.byteLength);
      for (let at = 0; at < bytes.length; ) {
        const read = readSync(fd, bytes, at, bytes.length - at, at);
        if (read === 0) throw this.changed(when, `it ended after ${at} bytes`, consequence);
        at += read;
      }
      this.check(fstatSync(fd), when, consequence);
      return bytes;
    } catch (error) {
      throw isReqflowError(error) ? error : this.unreadable(error);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Exit 2 when the file is not the one resolved: another file at the path, another size, written to since. */
  private check(now: Stats, when: string, consequence: string): void {
    const was = this.stat;
    const change =
      now.ino !== was.ino || now.dev !== was.dev || !now.isFile()
        ? 'another file is at its path now'
        : now.size !== was.size
          ? `it was ${was.size} bytes, it is ${now.size} now`
          : now.mtimeMs !== was.mtimeMs
            ? 'it was written to'
            : undefined;
    if (change !== undefined) throw this.changed(when, change, consequence);
  }

  private changed(when: string, change: string, consequence: string): UsageError {
    return new UsageError(`the body file ${this.shown} ${this.where} changed ${when} (${change}): ${consequence}`, { hint: 'send the request once the file is written whole, and leave it alone while it is sent' });
  }

  private unreadable(error: unknown): UsageError {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ERR_FS_FILE_TOO_LARGE' || code === 'ERR_STRING_TOO_LONG' || error instanceof RangeError ? 'it is too large to hold in memory, as what reads the body whole (a plugin, a script, a reference) needs' : (fileErrorWords(code) ?? String(code ?? (error as Error).message));
    return new UsageError(`cannot read the body file ${this.shown} ${this.where}: ${why}`, { hint: 'paths are relative to the request file' });
  }
}
