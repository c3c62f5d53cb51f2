/**
 * `--dry-run` and `--as http`: a request as a `.http` block — method, URL, headers and body as
 * it would be sent. reqflow's own User-Agent and Accept are left out: running the block adds
 * them again. A binary file in the body is written as the file include it came from.
 */
import type { BodyPiece } from '../core/model.js';
import { utf8Text, type OutgoingRequest } from './outgoing-request.js';
import { visible, visibleText } from './render/visible.js';
import type { Shown } from './secrets-shown.js';

/** How text reaches the output: made visible on a terminal, as it is into a file or a pipe (a saved block must send the same bytes). */
interface Show {
  text(text: string): string;
  line(text: string): string;
}
const ON_TERMINAL: Show = { text: visibleText, line: visible };
// CRLF stays a line end either way: the block's lines are the body's lines.
const AS_IS: Show = { text: (text) => text.replace(/\r\n/g, '\n'), line: (text) => text };

/** The bytes as text when they are UTF-8 text (no NUL), else undefined. */
function text(bytes: Buffer): string | undefined {
  const decoded = utf8Text(bytes);
  return decoded?.includes('\u0000') === false ? decoded : undefined;
}

/** Text pieces as text, binary files as `< path` lines; undefined when a file does not stand on its own line. */
function piecesText(pieces: readonly BodyPiece[], shown: Shown, show: Show): string | undefined {
  let out = '';
  for (const [i, piece] of pieces.entries()) {
    const decoded = text(piece.bytes);
    if (decoded !== undefined) {
      out += show.text(shown.text(decoded));
      continue;
    }
    const next = pieces[i + 1]?.bytes;
    const ownLine = (out === '' || out.endsWith('\n')) && (next === undefined || next[0] === 0x0a || (next[0] === 0x0d && next[1] === 0x0a));
    if (piece.file === undefined || !ownLine) return undefined;
    out += `< ${show.line(piece.file)}`;
  }
  return out;
}

function bodyText(request: OutgoingRequest, shown: Shown, show: Show): string | undefined {
  const { body } = request;
  if (body === undefined || body.length === 0) return undefined;
  if (typeof body === 'string') return show.text(shown.text(body));
  const fromPieces = request.pieces ? piecesText(request.pieces, shown, show) : undefined;
  if (fromPieces !== undefined) return fromPieces;
  const decoded = text(body);
  return decoded === undefined ? `[binary body, ${body.length} bytes]` : show.text(shown.text(decoded));
}

/** `terminal`: the output is one, and what it would act on (ESC, C1) is made visible; else the block holds the bytes that would be sent. */
export function asHttp(request: OutgoingRequest, shown: Shown, terminal: boolean): string {
  const show = terminal ? ON_TERMINAL : AS_IS;
  const version = request.http2 === 'require' ? ' HTTP/2' : request.http2 === 'never' ? ' HTTP/1.1' : '';
  const lines = [`### ${show.line(request.name)}`, `${request.method} ${shown.url(request.url)}${version}`];
  for (const [name, value] of shown.headerLines(request.headers)) lines.push(`${name}: ${value}`);
  const body = bodyText(request, shown, show);
  if (body !== undefined) lines.push('', body.replace(/\n$/, ''));
  return `${lines.join('\n')}\n\n`;
}
