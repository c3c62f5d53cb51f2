/**
 * `--as curl`: a request as a curl command for POSIX shells that sends what reqflow would send —
 * method, URL, every header (reqflow's own User-Agent and Accept included, and none of curl's
 * own in their place), the body's bytes, and how it goes: HTTP version, redirects, TLS, proxy.
 * Arguments are single-quoted (`'` written `'\''`); a body that is not plain text is piped in
 * through printf's octal escapes, and included files are named, never copied.
 */
import { UsageError } from '../core/errors/index.js';
import { NO_BODY_FRAMING } from '../core/methods.js';
import { getHeader, hasHeader } from '../core/headers.js';
import { requestTarget } from '../core/http/request-target.js';
import { parseRequestUrl } from '../core/http/send.js';
import type { BodyPiece } from '../core/model.js';
import { shellQuote } from '../core/shell.js';
import { utf8Text, type OutgoingRequest } from './outgoing-request.js';
import { visible } from './render/visible.js';
import type { Shown } from './secrets-shown.js';

/** reqflow follows at most 10 redirects (src/core/http/send.ts). */
const MAX_REDIRECTS = 10;
/** Older curl sends `Expect: 100-continue` for bodies past 1 KiB (newer ones past 1 MiB). */
const CURL_EXPECT_THRESHOLD = 1024;

/**
 * The headers curl itself keeps from another host when it follows a redirect: a written
 * `Authorization` (curl 7.58.0) and `Cookie` (7.64.0); from another port or scheme of the same
 * host too since 7.83.0 (CVE-2022-27776). Every other `-H` goes wherever a redirect leads.
 */
const CURL_KEEPS_TO_ORIGIN = /^(authorization|cookie)$/i;

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) as string}`;
}

/**
 * With `-L` curl sends every other `-H` header, and presents its client certificate, to any host a
 * redirect names; reqflow keeps credentials to the request's origin. Such a command would be less
 * safe than reqflow, and one without `-L` would stop at the first redirect reqflow follows: either
 * way not what reqflow does, so it is refused, naming what curl would hand on (docs/cli.md).
 */
function refuseCredentialsOnRedirects(request: OutgoingRequest): void {
  if (!request.followRedirects) return;
  const handedOn = request.credentials.filter((name) => !CURL_KEEPS_TO_ORIGIN.test(name));
  if (request.tls.certFile !== undefined || request.tls.pfxFile !== undefined) handedOn.push('the client certificate');
  if (handedOn.length === 0) return;
  throw new UsageError(`--as curl with -L: curl would send ${listed(handedOn)} of "${visible(request.name)}" to any host a redirect names; reqflow sends ${handedOn.length === 1 ? 'it' : 'them'} to this origin only`, {
    hint: 'leave out -L (or give the request # @no-redirect) to print it; of the headers, curl keeps only Authorization and Cookie from other hosts',
    atRequest: true,
  });
}

/**
 * Digest auth as curl's `--digest -u USER:PASSWORD`: curl, like reqflow, sends the request
 * without credentials and answers the server's challenge. curl splits `-u` at its first `:`, so
 * a user name holding one cannot be written (RFC 7616's `username*` is not curl's either).
 */
function digestOption(request: OutgoingRequest, shown: Shown): string | undefined {
  const { digest } = request;
  if (digest === undefined) return undefined;
  if (digest.username.includes(':')) {
    throw new UsageError(`--as curl: the digest user name of "${visible(request.name)}" holds a ":", which curl's -u USER:PASSWORD cannot carry`, { hint: 'send it with reqflow, or pick a user name without ":"', atRequest: true });
  }
  return `--digest -u ${shellQuote(`${visible(digest.username)}:${shown.secret(digest.password)}`)}`;
}

/** Text a single-quoted argument can carry as it is, shown safely on a terminal: UTF-8, no control character but tab and newline. */
function plainText(bytes: Buffer): string | undefined {
  const text = utf8Text(bytes);
  return text !== undefined && visible(text) === text ? text : undefined;
}

/** A printf format that prints exactly these bytes: printable ASCII as it is, the rest as escapes. */
function printfFormat(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x25) out += '%%';
    else if (byte === 0x0a) out += '\\n';
    else if (byte === 0x09) out += '\\t';
    else if (byte === 0x0d) out += '\\r';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  // A format starting with `-` would be read as an option (a multipart body starts with `--`).
  return out.startsWith('-') ? `\\055${out.slice(1)}` : out;
}

/**
 * A header line as one word for `-H`. A cookie the jar got from a server goes back as its bytes
 * (obs-text, one character a byte: src/core/http/one-hop.ts), which a terminal's UTF-8 text would
 * turn into two bytes each: such a line is printed as printf's octal escapes instead.
 */
function headerWord(line: string): string {
  return /[\x80-\xff]/.test(line) && !/[^\0-\xff]/.test(line) ? `"$(printf ${shellQuote(printfFormat(Buffer.from(line, 'latin1')))})"` : shellQuote(line);
}

/** Text with its secrets masked unless shown; other bytes as they are. */
function textBytes(bytes: Buffer, shown: Shown): Buffer {
  const text = utf8Text(bytes);
  return text === undefined ? bytes : Buffer.from(shown.text(text), 'utf8');
}

/**
 * How the body reaches curl: an argument, a file curl reads, or a pipe (`prefix | curl … --data-binary @-`);
 * `method`: the one curl sends with it unless told (`-T` puts).
 */
function bodyArgument(request: OutgoingRequest, shown: Shown, uploadable: boolean): { prefix?: string; argument: string; method?: string } | undefined {
  const { body, pieces, file } = request;
  // A large file: `-T` streams it as reqflow does (`--data-binary @` reads it whole, and curl 7.88 refuses 1 GiB:
  // "out of memory"), with its size as Content-Length — where curl would not add the file's name to the URL.
  if (file && uploadable) return { argument: `-T ${shellQuote(file.path)}`, method: 'PUT' };
  if (file) return { argument: `--data-binary ${shellQuote(`@${file.path}`)}` };
  if (body === undefined) return undefined;
  if (pieces && pieces.some((piece) => piece.file !== undefined)) {
    if (pieces.length === 1) return { argument: `--data-binary ${shellQuote(`@${(pieces[0] as BodyPiece).file}`)}` };
    // Text between two files is one printf.
    const merged: BodyPiece[] = [];
    for (const piece of pieces) {
      const last = merged.at(-1);
      if (piece.file === undefined && last !== undefined && last.file === undefined) merged[merged.length - 1] = { bytes: Buffer.concat([last.bytes, piece.bytes]) };
      else if (piece.file !== undefined || piece.bytes.length > 0) merged.push(piece);
    }
    const parts = merged.map((piece) => (piece.file !== undefined ? `cat ${shellQuote(piece.file)}` : `printf ${shellQuote(printfFormat(textBytes(piece.bytes, shown)))}`));
    return { prefix: `{ ${parts.join('; ')}; }`, argument: '--data-binary @-' };
  }
  const bytes = textBytes(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, shown);
  const text = plainText(bytes);
  // `@…` would name a file to curl.
  if (text !== undefined && !text.startsWith('@')) return { argument: `--data-binary ${shellQuote(text)}` };
  return { prefix: `printf ${shellQuote(printfFormat(bytes))}`, argument: '--data-binary @-' };
}

/** The HTTP version reqflow would speak, as curl's flag. */
function versionFlag(request: OutgoingRequest, url: URL): string | undefined {
  const tls = url.protocol === 'https:';
  if (request.http2 === 'never') return '--http1.1';
  // Over http://, reqflow's HTTP/2 is h2c with prior knowledge, falling back to HTTP/1.1 for a request
  // line's HTTP/2 as curl's --http2 does (which asks to upgrade instead); through a proxy, --http2 stays
  // HTTP/1.1 for http:// (docs/http2.md).
  if (request.http2 === 'require') return '--http2';
  if (request.http2 === 'prefer') return tls ? '--http2' : request.proxy ? undefined : '--http2-prior-knowledge';
  // reqflow offers only HTTP/1.1 over TLS unless asked; curl would offer HTTP/2.
  return tls && request.socketPath === undefined ? '--http1.1' : undefined;
}

export function asCurl(request: OutgoingRequest, shown: Shown): string {
  const url = parseRequestUrl(request.url); // what cannot be sent is not printed as a command either
  refuseCredentialsOnRedirects(request);
  // The target as reqflow sends it (dot segments, `%2e`, quotes kept: request-target.ts), which curl
  // sends as given only with --path-as-is, and with brackets and braces only with -g (no globbing).
  const target = requestTarget(request.url, url);
  const userinfo = url.username === '' && url.password === '' ? '' : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`;
  const printed = `${url.protocol}//${userinfo}${url.host}${target}`;
  // curl -T adds the file's name to a URL whose path ends in `/` (curl 8), or which ends in `/` (7.88 looks past the `?`).
  const body = bodyArgument(request, shown, !printed.endsWith('/') && !(target.split('?')[0] as string).endsWith('/'));
  const options: string[] = [];
  const method = request.method;
  if (method === 'HEAD' && body === undefined) options.push('--head'); // -X HEAD would wait for a body
  else if (method !== (body === undefined ? 'GET' : (body.method ?? 'POST'))) options.push(`-X ${shellQuote(method)}`);
  const version = versionFlag(request, url);
  if (version) options.push(version);
  if (request.followRedirects) options.push(`-L --max-redirs ${MAX_REDIRECTS}`);
  if (request.maxTimeMs !== undefined) options.push(`-m ${request.maxTimeMs / 1000}`);
  const { tls } = request;
  if (tls.insecureSkipVerify === true) options.push('-k');
  if (tls.pfxFile !== undefined) options.push(`--cert ${shellQuote(tls.pfxFile)} --cert-type P12`);
  if (tls.certFile !== undefined) options.push(`--cert ${shellQuote(tls.certFile)}`);
  if (tls.keyFile !== undefined) options.push(`--key ${shellQuote(tls.keyFile)}`);
  if (tls.passphrase !== undefined && tls.passphrase !== '') options.push(`--pass ${shellQuote(shown.secret(tls.passphrase))}`);
  // reqflow trusts caFile besides the system's CAs; curl's --cacert replaces them (same for an internal CA).
  if (tls.caFile !== undefined) options.push(`--cacert ${shellQuote(tls.caFile)}`);
  const digest = digestOption(request, shown);
  if (digest !== undefined) options.push(digest);
  if (request.socketPath !== undefined) options.push(`--unix-socket ${shellQuote(request.socketPath)}`);
  else if (request.proxy) options.push(`-x ${shellQuote(shown.url(request.proxy.href))}`);
  else if (request.directDespiteEnvironment) options.push("--noproxy '*'");
  // reqflow decodes gzip, deflate and br answers; curl does with --compressed.
  if (/\b(gzip|deflate|br)\b/i.test(getHeader(request.headers, 'accept-encoding') ?? '')) options.push('--compressed');
  // `-H 'Name:'` would remove the header; `Name;` is curl's way to send it empty.
  for (const [name, value] of shown.headerLines({ ...request.headers, ...request.added })) options.push(`-H ${headerWord(value === '' ? `${name};` : `${name}: ${value}`)}`);
  if (body !== undefined) {
    // curl would add a form Content-Type and, for a larger body, Expect: 100-continue; reqflow sends neither.
    if (!hasHeader(request.headers, 'content-type')) options.push(`-H ${shellQuote('Content-Type:')}`);
    const length = typeof request.body === 'string' ? Buffer.byteLength(request.body) : (request.body?.length ?? request.file?.byteLength ?? 0);
    if (length > CURL_EXPECT_THRESHOLD && !hasHeader(request.headers, 'expect')) options.push(`-H ${shellQuote('Expect:')}`);
    options.push(body.argument);
  } else if (!NO_BODY_FRAMING.has(method) && !hasHeader(request.headers, 'content-length')) options.push(`-H ${shellQuote('Content-Length: 0')}`);
  if (/(^|\/)(\.|%2e){1,2}(\/|\?|$)/i.test(target.split('?')[0] as string)) options.unshift('--path-as-is');
  if (/[[\]{}]/.test(printed)) options.unshift('-g');
  const command = [`${body?.prefix ? `${body.prefix} | ` : ''}curl ${shellQuote(shown.url(printed))}`, ...options.map((option) => `  ${option}`)];
  return `# ${visible(request.name)}\n${command.join(' \\\n')}\n\n`;
}
