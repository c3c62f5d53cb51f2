import { statSync } from 'node:fs';
import { UsageError, fileErrorWords } from '../errors/index.js';
import type { DiskFileBody } from '../file-body.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import type { BodyPart, BodyPiece, RequestSpec, VariableResolver } from '../model.js';
import { notAFile } from '../not-a-file.js';
import { resolvePath } from '../resolve-path.js';

/** Encodings `<@NAME ./file` may name (what Node's TextDecoder knows, plus the usual aliases). */
function decode(bytes: Buffer, encoding: string, where: string): string {
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    throw new UsageError(`unknown encoding "${encoding}" ${where}`, { hint: 'use an encoding such as utf-8, latin1, windows-1252 or shift_jis' });
  }
}

/** An included file's bytes (`path`: its path resolved); a `<@` file's as text, its templates resolved. */
async function readPart(part: Extract<BodyPart, { kind: 'file' }>, path: string, spec: RequestSpec, variables: VariableResolver): Promise<Buffer> {
  const where = `(${spec.source.file}:${part.line})`;
  const kind = notAFile(path);
  if (kind) throw new UsageError(`cannot read the body file ${part.path} ${where}: it is ${kind}, not a file`, { hint: 'a device such as /dev/zero never ends, nor does a pipe no one writes to: save the bytes to a file' });
  let bytes: Buffer;
  try {
    // Loaded here, not at the top: fs/promises (and the readline it loads) costs ~1.5 ms of every start-up.
    bytes = await lazyBuiltin<typeof import('node:fs/promises')>('node:fs/promises').readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = fileErrorWords(code) ?? String(code ?? error);
    throw new UsageError(`cannot read the body file ${part.path} ${where}: ${why}`, { hint: 'paths are relative to the request file' });
  }
  if (!part.substitute) return bytes;
  // `<@` files are text: decoded, {{templates}} resolved, sent as UTF-8.
  return Buffer.from(await variables.expand(decode(bytes, part.encoding || 'utf-8', where)), 'utf8');
}

/**
 * A body that is one file included as it is (`< ./big.bin`), larger than this, is sent from the
 * disk as it goes out (core/file-body.ts): never read whole. The same 1 MiB past which a body is
 * not scanned for credentials (request-secrets.ts), so streaming one changes nothing there.
 */
const STREAMED_BODY_BYTES = 1024 * 1024;

/** The include sent from its file: a regular file past 1 MiB; else undefined (read, whose errors say what is wrong). */
async function streamedFile(part: Extract<BodyPart, { kind: 'file' }>, path: string, shown: string, spec: RequestSpec): Promise<DiskFileBody | undefined> {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (!stat.isFile() || stat.size <= STREAMED_BODY_BYTES) return undefined;
  const { DiskFileBody } = await import('../file-body.js');
  return new DiskFileBody(path, shown, `(${spec.source.file}:${part.line})`, stat);
}

/**
 * The pieces of a body with file includes (relative to the request file), read and resolved, each
 * path's templates once. `streams`: a body that is one file included as it is, past 1 MiB, comes
 * back as that file, unread.
 */
async function piecesOrFile(parts: readonly BodyPart[], spec: RequestSpec, baseDir: string, variables: VariableResolver, streams: boolean): Promise<BodyPiece[] | DiskFileBody> {
  const pieces: BodyPiece[] = [];
  for (const part of parts) {
    if (part.kind === 'text') {
      pieces.push({ bytes: Buffer.from(await variables.expand(part.text), 'utf8') });
      continue;
    }
    const shown = await variables.expand(part.path);
    const path = resolvePath(shown, baseDir);
    const file = streams && parts.length === 1 && !part.substitute ? await streamedFile(part, path, shown, spec) : undefined;
    if (file) return file;
    const bytes = await readPart(part, path, spec, variables);
    pieces.push(part.substitute ? { bytes } : { bytes, file: path });
  }
  return pieces;
}

/** A request's body of parts as it goes out: the file it is sent from (see {@link piecesOrFile}), or its pieces. */
export function resolveRequestBody(parts: readonly BodyPart[], spec: RequestSpec, baseDir: string, variables: VariableResolver): Promise<BodyPiece[] | DiskFileBody> {
  return piecesOrFile(parts, spec, baseDir, variables, true);
}

/**
 * The body as it goes on the wire: `{{…}}` resolved in its text, included files read (relative
 * to the request file). Text stays a string; a body with files becomes bytes.
 */
export async function resolveBody(spec: RequestSpec, baseDir: string, variables: VariableResolver): Promise<string | Buffer | undefined> {
  if (!spec.bodyParts) return typeof spec.body === 'string' ? variables.expand(spec.body) : spec.body;
  // A WebSocket message: bytes in memory, whatever the file's size.
  return Buffer.concat(((await piecesOrFile(spec.bodyParts, spec, baseDir, variables, false)) as BodyPiece[]).map((piece) => piece.bytes));
}
