/**
 * `--dry-run` and `--as http`: a request as a `.http` block — method, URL, headers and body as
 * it would be sent. reqflow's own User-Agent and Accept are left out: running the block adds
 * them again. A binary file in the body is written as the file include it came from.
 */
import { shorthandCredentials } from '../core/auth-shorthand.js';
import { getHeader } from '../core/headers.js';
import type { BodyPiece } from '../core/model.js';
import { utf8Text, type OutgoingRequest } from './outgoing-request.js';
import { visible, visibleText } from './render/visible.js';
import type { Shown } from './secrets-shown.js';
import { UsageError } from '../core/errors/index.js';
import { SEPARATOR, UNSEPARATED_REQUEST } from '../plugins/format-http/blocks.js';
import { HANDLER, INCLUDE, PASTED_RESPONSE } from '../plugins/format-http/body.js';
import { COMMENT, FILE_VARIABLE, HTTPYAC_SCRIPT_START } from '../plugins/format-http/line-forms.js';

/**
 * Digest auth's credentials as the `Authorization: Digest user password` shorthand, which the
 * block's run answers the challenge with; refused for `--as http` when the shorthand would read
 * back other credentials (a user name with a space, `=` or `:`, a password with edge spaces).
 */
function digestLine(request: OutgoingRequest, exporting: boolean): string | undefined {
  const { digest } = request;
  if (digest === undefined) return undefined;
  const line = `Digest ${digest.username} ${digest.password}`;
  const back = shorthandCredentials('digest', line);
  if (exporting && (back?.username !== digest.username || back.password !== digest.password || digest.password.trim() !== digest.password)) {
    throw new UsageError(`--as http: the digest credentials of "${request.name}" cannot be written as "Authorization: Digest user password" and read back the same`, { hint: '--as curl prints them as --digest -u' });
  }
  return line;
}

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

/** A line feed with no CR before it (`crBefore`: the text before this one ended with a CR). */
function hasBareLf(text: string, crBefore = false): boolean {
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i === 0 ? !crBefore : text.charCodeAt(i - 1) !== 0x0d) return true;
  }
  return false;
}

/**
 * A multipart body's lines are read back with CRLF ends (the format's), so a `--as http` block
 * sends CRLF where the body had a line feed alone: a file's text with one is written as its
 * include (sent byte for byte), and any other such text is refused.
 */
function refuseBareLf(request: OutgoingRequest): never {
  throw new UsageError(`--as http: the multipart body of "${request.name}" has a line ending in a line feed alone, which a .http block reads back as CRLF`, { hint: 'the saved block would send something else; --as curl prints a command that sends the same bytes' });
}

/**
 * Text pieces as text, binary files as `< path` lines; undefined when a file does not stand on
 * its own line. `multipartExport`: text with a line feed alone (see {@link refuseBareLf}).
 */
function piecesText(request: OutgoingRequest, pieces: readonly BodyPiece[], shown: Shown, show: Show, multipartExport: boolean): string | undefined {
  let out = '';
  for (const [i, piece] of pieces.entries()) {
    const decoded = text(piece.bytes);
    const previous = pieces[i - 1]?.bytes;
    const bare = multipartExport && decoded !== undefined && hasBareLf(decoded, previous?.[previous.length - 1] === 0x0d);
    if (decoded !== undefined && !bare) {
      out += show.text(shown.text(decoded));
      continue;
    }
    const next = pieces[i + 1]?.bytes;
    const ownLine = (out === '' || out.endsWith('\n')) && (next === undefined || next[0] === 0x0a || (next[0] === 0x0d && next[1] === 0x0a));
    if (piece.file === undefined || !ownLine) return bare ? refuseBareLf(request) : undefined;
    out += `< ${show.line(piece.file)}`;
  }
  return out;
}

function bodyText(request: OutgoingRequest, shown: Shown, show: Show, multipartExport: boolean): string | undefined {
  const { body, file } = request;
  // A large file sent as it is read: its include, as a binary file piece is written (the block sends the same bytes).
  if (file) return `< ${show.line(file.path)}`;
  if (body === undefined || body.length === 0) return undefined;
  if (typeof body === 'string') {
    if (multipartExport && hasBareLf(body)) refuseBareLf(request);
    return show.text(shown.text(body));
  }
  const fromPieces = request.pieces ? piecesText(request, request.pieces, shown, show, multipartExport) : undefined;
  if (fromPieces !== undefined) return fromPieces;
  const decoded = text(body);
  if (multipartExport && decoded !== undefined && hasBareLf(decoded)) refuseBareLf(request);
  return decoded === undefined ? `[binary body, ${body.length} bytes]` : show.text(shown.text(decoded));
}

/**
 * A body line a `.http` file reads as syntax, not as body text: a separator or a request line, a
 * file include (the saved block would send a local file), a response handler, check or pasted
 * response, a comment or file variable (dropped), a script, a template. Undefined when none.
 */
function syntaxLine(body: string): string | undefined {
  // The request-file reader's own patterns: what it takes out of a body, or starts a request with.
  const syntax = [SEPARATOR, UNSEPARATED_REQUEST, INCLUDE, HANDLER, PASTED_RESPONSE, COMMENT, FILE_VARIABLE, HTTPYAC_SCRIPT_START, /^\?\?\s/];
  return body.split('\n').find((line) => line.includes('{{') || syntax.some((pattern) => pattern.test(line)));
}

/**
 * `terminal`: the output is one, and what it would act on (ESC, C1) is made visible; else the
 * block holds the bytes that would be sent. `exporting` (`--as http`): a body the block cannot
 * hold as text — one with a line a `.http` file reads as syntax — is refused rather than saved as
 * a block that sends something else (`--as curl` holds any body).
 */
export function asHttp(request: OutgoingRequest, shown: Shown, terminal: boolean, exporting = false): string {
  const plain = terminal ? ON_TERMINAL : AS_IS;
  // The body's own text is checked; the `< file` lines written for its binary files are the block's.
  const show: Show = !exporting
    ? plain
    : {
        line: plain.line,
        text: (text) => {
          const syntax = syntaxLine(text);
          if (syntax !== undefined) throw new UsageError(`--as http: the body of "${request.name}" holds a line a .http file reads as syntax, not text: ${JSON.stringify(visible(syntax.slice(0, 80)))}`, { hint: 'the saved block would send something else; --as curl prints a command that sends the same bytes' });
          return plain.text(text);
        },
      };
  const version = request.http2 === 'require' ? ' HTTP/2' : request.http2 === 'never' ? ' HTTP/1.1' : '';
  const lines = [`### ${show.line(request.name)}`, `${request.method} ${shown.url(request.url)}${version}`];
  const digest = digestLine(request, exporting);
  for (const [name, value] of shown.headerLines(digest === undefined ? request.headers : { ...request.headers, Authorization: digest })) lines.push(`${name}: ${value}`);
  const multipartExport = exporting && getHeader(request.headers, 'content-type')?.trim().toLowerCase().startsWith('multipart/') === true;
  const body = bodyText(request, shown, show, multipartExport);
  if (body !== undefined) lines.push('', body.replace(/\n$/, ''));
  return `${lines.join('\n')}\n\n`;
}
