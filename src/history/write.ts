/**
 * Writes a run's history: each request masked (the same masking as `-v`, errors and test
 * reports, with every secret the run learnt) and appended to the history file as one NDJSON
 * line. Loaded when the run ends, never at start-up.
 *
 * Why an append-only NDJSON file: no native module to install, writes of whole lines with
 * O_APPEND (concurrent runs never interleave within a line), and a writer killed mid-write
 * leaves at most one torn last line, which readers skip and the next writer closes.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { displayHeaders, displayUrl, type HeaderKinds, type SecretRegistry } from '../core/mask.js';
import { maskSecretFields } from '../core/mask-fields.js';
import { HISTORY_BODY_LIMIT, type HistoryEntry, type HistoryTarget, type RecordedExchange, type StoredBody } from './entry.js';
import { ROTATED_SUFFIX } from './paths.js';

/** 12 hex digits: enough that a project's history never repeats one (not a secret: Math.random will do). */
function newId(): string {
  const part = (): string => Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0');
  return part() + part();
}

/** A body as the history keeps it: text masked and cut at the limit; binary bodies only noted. */
function storeBody(into: StoredBody, body: string | Buffer | undefined, size: number, scrub: (text: string) => string): void {
  if (body === undefined || body.length === 0) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body; // a string is already at most the limit in characters
  // The same test as -v and the dry run: a NUL in the first 8,000 bytes is not text.
  if (bytes.subarray(0, 8000).includes(0)) {
    into.binary = true;
    return;
  }
  let text = bytes.subarray(0, HISTORY_BODY_LIMIT).toString('utf8');
  if (size > HISTORY_BODY_LIMIT) {
    text = text.replace(/\uFFFD$/, ''); // a character split by the cut
    into.cut = true;
  }
  into.body = scrub(maskSecretFields(text));
}

/** The entry of one exchange, masked; its keys in the order of a line: the summary, then the exchange (see HistoryEntry). */
function toEntry(exchange: RecordedExchange, target: HistoryTarget, file: string, scrub: (text: string) => string, kinds: HeaderKinds): HistoryEntry {
  const { response } = exchange;
  const entry = {
    v: 1,
    id: newId(),
    time: new Date(exchange.startedAt).toISOString(),
    project: target.project,
    profile: target.profile,
    file,
    name: exchange.name,
    line: exchange.line,
    method: exchange.method,
    url: displayUrl(exchange.url, scrub),
  } as HistoryEntry;
  if (response) entry.status = response.status;
  entry.durationMs = Math.round(exchange.durationMs * 10) / 10;
  entry.size = response?.size ?? 0;
  if (exchange.error) entry.error = { message: scrub(exchange.error.message), exitCode: exchange.error.exitCode };
  entry.request = { headers: displayHeaders(exchange.requestHeaders, scrub, kinds), size: exchange.requestSize };
  storeBody(entry.request, exchange.requestBody, exchange.requestSize, scrub);
  if (response) {
    entry.response = { statusText: scrub(response.statusText), headers: displayHeaders(response.headers, scrub, kinds) };
    storeBody(entry.response, response.body, response.size, scrub);
  }
  if (target.profilesFile !== undefined || target.environment !== undefined) {
    entry.sentWith = {};
    if (target.profilesFile !== undefined) entry.sentWith.profilesFile = target.profilesFile;
    if (target.environment !== undefined) entry.sentWith.environment = target.environment;
  }
  entry.end = true;
  return entry;
}

function openForAppend(path: string): number {
  // Read too: the last byte says whether a killed writer left a torn line.
  const open = (): number => openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
  try {
    return open();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 }); // the first entry of the project
    return open();
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

function endsInNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  return size === 0 || (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a);
}

/** Lines go out in writes of about this much: the batch's text is never held whole (less for the GC to copy). */
const WRITE_BYTES = 256 * 1024;

/**
 * Appends the entries to the target's file (0600, in 0700 folders reqflow creates), in whole
 * lines. Before the file would grow past `maxBytes` it is rotated: renamed to `<file>.1`
 * (replacing the one before), and a new file started. Throws on file-system errors (the caller
 * warns).
 */
export function appendHistory(target: HistoryTarget, batch: readonly RecordedExchange[], secrets: SecretRegistry): void {
  const scrub = (text: string): string => secrets.scrub(text);
  const files = new Map<string, string>(); // a batch's requests come from a few files: resolved once each
  const kinds: HeaderKinds = new Map(); // and carry the same few header names
  let fd = openForAppend(target.path);
  try {
    let size = fstatSync(fd).size;
    let pending: string[] = [];
    let pendingBytes = 0;
    const write = (): void => {
      writeAll(fd, pending.join(''));
      size += pendingBytes;
      pending = [];
      pendingBytes = 0;
    };
    // A writer killed mid-line left a torn line: end it, so that ours start on a line of their own.
    if (!endsInNewline(fd, size)) {
      pending.push('\n');
      pendingBytes = 1;
    }
    for (const exchange of batch) {
      let file = files.get(exchange.file);
      if (file === undefined) files.set(exchange.file, (file = resolve(exchange.file)));
      const line = `${JSON.stringify(toEntry(exchange, target, file, scrub, kinds))}\n`;
      const bytes = Buffer.byteLength(line);
      if (size + pendingBytes + bytes > target.maxBytes && size + pendingBytes > 0) {
        write();
        closeSync(fd);
        renameSync(target.path, `${target.path}${ROTATED_SUFFIX}`);
        fd = openForAppend(target.path);
        size = fstatSync(fd).size; // another run may have started the new file already
      }
      pending.push(line);
      pendingBytes += bytes;
      if (pendingBytes >= WRITE_BYTES) write();
    }
    write();
  } finally {
    closeSync(fd);
  }
}
