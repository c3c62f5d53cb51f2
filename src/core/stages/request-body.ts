import { UsageError, fileErrorWords } from '../errors/index.js';
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

async function readPart(part: Extract<BodyPart, { kind: 'file' }>, spec: RequestSpec, baseDir: string, variables: VariableResolver): Promise<Buffer> {
  const where = `(${spec.source.file}:${part.line})`;
  const path = resolvePath(await variables.expand(part.path), baseDir);
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

/** The pieces of a body with file includes (relative to the request file), read and resolved. */
export async function resolveBodyPieces(parts: readonly BodyPart[], spec: RequestSpec, baseDir: string, variables: VariableResolver): Promise<BodyPiece[]> {
  const pieces: BodyPiece[] = [];
  for (const part of parts) {
    if (part.kind === 'text') pieces.push({ bytes: Buffer.from(await variables.expand(part.text), 'utf8') });
    else if (part.substitute) pieces.push({ bytes: await readPart(part, spec, baseDir, variables) });
    else pieces.push({ bytes: await readPart(part, spec, baseDir, variables), file: resolvePath(await variables.expand(part.path), baseDir) });
  }
  return pieces;
}

/**
 * The body as it goes on the wire: `{{…}}` resolved in its text, included files read (relative
 * to the request file). Text stays a string; a body with files becomes bytes.
 */
export async function resolveBody(spec: RequestSpec, baseDir: string, variables: VariableResolver): Promise<string | Buffer | undefined> {
  if (!spec.bodyParts) return typeof spec.body === 'string' ? variables.expand(spec.body) : spec.body;
  return Buffer.concat((await resolveBodyPieces(spec.bodyParts, spec, baseDir, variables)).map((piece) => piece.bytes));
}
