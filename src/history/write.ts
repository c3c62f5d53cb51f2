/**
 * Writes a run's history: each request masked (the same masking as `-v`, errors and test
 * reports, with every secret the run learnt) and appended to the history file as one NDJSON
 * line. Loaded when the run ends, never at start-up.
 *
 * Why an append-only NDJSON file: no native module to install, writes of whole lines with
 * O_APPEND (concurrent runs never interleave within a line), and a writer killed mid-write
 * leaves at most one torn last line, which readers skip and the next writer closes.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { tryFileLockSync } from '../core/file-lock.js';
import { dirname, resolve } from 'node:path';
import type { HeaderKinds, SecretRegistry } from '../core/mask.js';
import type { HistoryTarget, RecordedExchange } from './entry.js';
import { cutEnd } from './cut-end.js';
import { entryLine, type LineContext } from './entry-line.js';
import { recordHistoryFolder, setAsideEarlierHistory } from './folder-record.js';
import { ROTATED_SUFFIX } from './paths.js';

function openForAppend(path: string): number {
  // Read too: the last byte says whether a killed writer left a torn line. Never through a
  // symbolic link: one put in the history's place would have the entries appended to its target.
  const open = (): number => openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  let fd: number;
  try {
    fd = open();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw Object.assign(new Error('it is a symbolic link, which the history is never written through'), { code: 'a symbolic link, not written through' });
    if (code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 }); // the first entry of the project
    fd = open();
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw Object.assign(new Error('not a file'), { code: 'not a file' });
  }
  return fd;
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

function endsInNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  return size === 0 || (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a);
}

/** Is `fd` still the file at `path`? Not once another run has rotated it (it is `<file>.1` then). */
function stillAt(fd: number, path: string): boolean {
  try {
    const open = fstatSync(fd);
    const named = statSync(path);
    return open.ino === named.ino && open.dev === named.dev;
  } catch {
    return false;
  }
}

/**
 * Rotates the file `fd` has open, unless another run did so already, and opens the new one.
 * Under a lock: two runs that both find the file full must not both rename — the second would
 * rename the first's new file over the full `<file>.1`, and its entries would be lost. Never
 * waited for: the writer runs on the event loop (the UI's too).
 */
function rotate(path: string, fd: number): number {
  const rotated = tryFileLockSync(path, () => {
    const mine = stillAt(fd, path);
    closeSync(fd);
    if (mine) renameSync(path, `${path}${ROTATED_SUFFIX}`);
    return openForAppend(path);
  });
  // Another run holds the lock: it is rotating, and this one writes on (into whichever file is there; `flush` checks).
  return rotated ?? fd;
}

/** Lines go out in writes of about this much: the batch's text is never held whole (less for the GC to copy). */
const WRITE_BYTES = 256 * 1024;

/**
 * Appends the entries to the target's file (0600, in 0700 folders reqflow creates), in whole
 * lines. Before the file would grow past `maxBytes` it is rotated: renamed to `<file>.1`
 * (replacing the one before), and a new file started. A history kept for an earlier folder at
 * the project's path is set aside first (`warn`), and the folder the entries are for recorded.
 * Throws on file-system errors (the caller warns).
 */
export function appendHistory(target: HistoryTarget, batch: readonly RecordedExchange[], secrets: SecretRegistry, warn: (message: string) => void = () => undefined): void {
  const dir = dirname(target.path);
  if (!setAsideEarlierHistory(dir, target.project, target.folder, warn) && target.folder !== undefined) recordHistoryFolder(dir, target.project, target.folder);
  const files = new Map<string, string>(); // a batch's requests come from a few files: resolved once each
  const kinds: HeaderKinds = new Map(); // and carry the same few header names
  const context: LineContext = { target, scrub: (text) => secrets.scrub(text), kinds, cutEnd: cutEnd(secrets) };
  let fd = openForAppend(target.path);
  try {
    let size = fstatSync(fd).size;
    // Whole lines waiting to be written, and their bytes.
    let waiting: string[] = [];
    let waitingBytes = 0;
    const flush = (): void => {
      if (waiting.length === 0) return;
      const bytes = Buffer.from(waiting.join(''));
      waiting = [];
      waitingBytes = 0;
      // Another run rotated the file meanwhile: ours is `<file>.1` now, and the lines go to the new one.
      if (!stillAt(fd, target.path)) {
        closeSync(fd);
        fd = openForAppend(target.path);
      }
      writeAll(fd, bytes);
      size = fstatSync(fd).size; // other runs append too
    };
    // A writer killed mid-line left a torn line: end it, so that ours start on a line of their own.
    if (!endsInNewline(fd, size)) {
      waiting.push('\n');
      waitingBytes = 1;
    }
    for (const exchange of batch) {
      let file = files.get(exchange.file);
      if (file === undefined) files.set(exchange.file, (file = resolve(exchange.file)));
      const line = `${entryLine(exchange, file, context)}\n`;
      const bytes = Buffer.byteLength(line);
      if (size + waitingBytes + bytes > target.maxBytes && size + waitingBytes > 0) {
        flush();
        fd = rotate(target.path, fd);
        size = fstatSync(fd).size; // another run may have started the new file already
      }
      waiting.push(line);
      waitingBytes += bytes;
      if (waitingBytes >= WRITE_BYTES) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
}
