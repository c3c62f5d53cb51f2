/**
 * `--dry-run` and `--as http`: a request as a `.http` block — method, URL, headers and body as
 * it would be sent. reqflow's own User-Agent and Accept are left out: running the block adds
 * them again. A binary file in the body is written as the file include it came from.
 */
import type { BodyPiece } from '../core/model.js';
import { utf8Text, type OutgoingRequest } from './outgoing-request.js';
import { visible, visibleText } from './render/visible.js';
import type { Shown } from './secrets-shown.js';

/** The bytes as text when they are UTF-8 text (no NUL), else undefined. */
function text(bytes: Buffer): string | undefined {
  const decoded = utf8Text(bytes);
  return decoded?.includes('\u0000') === false ? decoded : undefined;
}

/** Text pieces as text, binary files as `< path` lines; undefined when a file does not stand on its own line. */
function piecesText(pieces: readonly BodyPiece[], shown: Shown): string | undefined {
  let out = '';
  for (const [i, piece] of pieces.entries()) {
    const decoded = text(piece.bytes);
    if (decoded !== undefined) {
      out += visibleText(shown.text(decoded));
      continue;
    }
    const next = pieces[i + 1]?.bytes;
    const ownLine = (out === '' || out.endsWith('\n')) && (next === undefined || next[0] === 0x0a || (next[0] === 0x0d && next[1] === 0x0a));
    if (piece.file === undefined || !ownLine) return undefined;
    out += `< ${visible(piece.file)}`;
  }
  return out;
}

function bodyText(request: OutgoingRequest, shown: Shown): string | undefined {
  const { body } = request;
  if (body === undefined || body.length === 0) return undefined;
  if (typeof body === 'string') return visibleText(shown.text(body));
  const fromPieces = request.pieces ? piecesText(request.pieces, shown) : undefined;
  if (fromPieces !== undefined) return fromPieces;
  const decoded = text(body);
  return decoded === undefined ? `[binary body, ${body.length} bytes]` : visibleText(shown.text(decoded));
}

export function asHttp(request: OutgoingRequest, shown: Shown): string {
  const version = request.http2 === 'require' ? ' HTTP/2' : request.http2 === 'never' ? ' HTTP/1.1' : '';
  const lines = [`### ${visible(request.name)}`, `${request.method} ${shown.url(request.url)}${version}`];
  for (const [name, value] of shown.headerLines(request.headers)) lines.push(`${name}: ${value}`);
  const body = bodyText(request, shown);
  if (body !== undefined) lines.push('', body.replace(/\n$/, ''));
  return `${lines.join('\n')}\n\n`;
}
