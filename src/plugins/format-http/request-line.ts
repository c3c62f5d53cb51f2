/**
 * The request line of the `.http` dialect, in every form JetBrains, VS Code REST Client and
 * httpyac accept: `METHOD URL [HTTP/1.1]`, a URL alone (GET), a URL without a scheme
 * (`localhost:8080/x` → `http://`), an origin-form target (`GET /users` with a `Host:` header,
 * resolved once the headers are read), a target continued on lines that start with `?` or `&`,
 * and spaces inside the URL (percent-encoded).
 */
import { looksSchemeless, withDefaultScheme } from '../../core/default-scheme.js';
import { ParseError } from '../../core/errors/index.js';
import { METHOD_TOKEN, methodToSend, unsendableMethod } from '../../core/methods.js';

const VERSION = /^HTTP\/(\d(?:\.\d)?)$/i;
/** A URL (or template) on its own: no method before it. */
const BARE_URL = /^(?:https?:\/\/|\{\{)/i;
/**
 * httpyac's request lines of other protocols, upper case only as httpyac reads them (a `ws` or
 * `PURGE` is a method): WS/WSS are WebSocket requests (1), SSE/EVENTSOURCE event streams (2); the
 * others are clients reqflow does not have.
 */
const PROTOCOL = /^(?:(WSS?)|(SSE|EVENTSOURCE)|GRPC|MQTTS?|AMQP)$/;

/**
 * httpyac's protocol request line that reqflow cannot send as httpyac does: `refused` is its
 * keyword (`GRPC`: a client reqflow lacks), or what of an SSE request (`body`, `Event`). Worded
 * by protocol-line.ts, loaded when the parse stage reports it (format-http's index.ts): only a
 * file with such a line pays for the words.
 */
export class ProtocolLineError extends ParseError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly refused: string,
  ) {
    super(file, line, 1, refused);
  }
}

export interface RequestLine {
  method: string;
  /** The URL, or an origin-form target (`/path`) when `originForm`. */
  url: string;
  methodWritten?: false;
  /** `GET /path`: the URL is completed from the `Host:` header. */
  originForm?: true;
  /** `GRAPHQL url` (JetBrains): a GraphQL request, sent as POST. */
  graphql?: true;
  /** `WEBSOCKET url` (JetBrains), `WS url` (httpyac): a WebSocket request; its body holds the messages. */
  websocket?: true;
  /** `SSE url` (httpyac): a GET whose response is read as an event stream. */
  sse?: true;
  /** The version written at the end of the line (`HTTP/2`, `HTTP/1.1`). */
  httpVersion?: '1.1' | '2';
  /** `OPTIONS *`: the target is `*`, the URL (`/` after the Host) names the server. */
  asteriskForm?: true;
}

/**
 * A line that continues the request target: `?a=1` or `&b=2` (indented or not), an indented
 * `/path` part (JetBrains), or, while the target is open (no `HTTP/1.1` ends it), any indented line
 * (`page=2&` after a `?`, `tracks` after `/v1/`) that cannot start a body (`{`, `[`, `<`), a
 * handler (`>`) or a variable (`@name = …`). `&name: value` is a header (a name made of token characters), and
 * `?? status == 200` a check (httpyac), wherever it stands.
 */
function isTargetContinuation(line: string, open = false): boolean {
  if (/^\s*\?\?(\s|$)/.test(line) || /^\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+:/.test(line)) return false;
  // JetBrains spec §3.2.1.3–4: a new line with indent separates path segments (`path-separator`) and goes
  // on with the query (`new-line-with-indent query`); the line separators are not sent.
  return /^\s*[?&]/.test(line) || /^\s+\//.test(line) || (open && /^\s+(?:\{\{|[^\s#{[<>@])/.test(line) && !/^\s+\/\//.test(line));
}

/** The request line (with the lines joined so far) still takes an indented continuation: no version ends it. */
function targetIsOpen(requestLine: string): boolean {
  return !/\sHTTP\/[\d.]+\s*$/i.test(requestLine);
}

/**
 * The request line at `lines[at]` with the lines that continue its target joined to it (each
 * trimmed), and the index of its last line. Only the line joined last, with the character before
 * it (a version's space), is tested for a version: testing the whole text joined so far made
 * 40,000 `&b=2` lines take 6 s.
 */
export function joinTarget(lines: readonly string[], at: number): { text: string; last: number } {
  const parts = [lines[at] as string];
  let joinedLast = parts[0] as string;
  let last = at;
  while (last + 1 < lines.length && isTargetContinuation(lines[last + 1] as string, targetIsOpen(joinedLast))) {
    const part = (lines[++last] as string).trim();
    joinedLast = `${joinedLast.slice(-1)}${part}`;
    parts.push(part);
  }
  return { text: parts.join(''), last };
}

/** Whitespace as `\s` means it (a test per character of a 10 MB line must be cheap). */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0xfeff || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Splits a request line at whitespace, except inside a template (`{{urlencode query}}`).
 * A scan, not a regex with a repeated group: that one overflows the stack on a 10 MB line.
 */
function splitRequestLine(text: string): Array<{ text: string; at: number }> {
  const parts: Array<{ text: string; at: number }> = [];
  // No template closes past the last `}}`: a `{{` after it is not searched for one (from every
  // `{{` of a line that never closes them, that search was quadratic).
  const lastClose = text.lastIndexOf('}}');
  let start = -1;
  for (let i = 0; i < text.length; ) {
    if (i + 2 <= lastClose && text.startsWith('{{', i)) {
      const end = text.indexOf('}}', i + 2);
      if (end >= 0) {
        if (start < 0) start = i;
        i = end + 2;
        continue;
      }
    }
    if (isSpace(text.charCodeAt(i))) {
      if (start >= 0) parts.push({ text: text.slice(start, i), at: start });
      start = -1;
    } else if (start < 0) {
      start = i;
    }
    i++;
  }
  if (start >= 0) parts.push({ text: text.slice(start), at: start });
  return parts;
}

/**
 * The target as written between the method and the version; whitespace in it is
 * percent-encoded, except inside `{{…}}` (`{{urlencode query}}` is one template).
 */
function targetOf(text: string): string {
  const target = text.trim();
  // Only whitespace changes: a target without any is itself (no replace, no callback, per request).
  if (!/\s/.test(target)) return target;
  // No template closes past the last `}}`: only the part up to it is read for `{{…}}`, so that a
  // `{{` never closed is not searched to the line's end again from every later `{{` (quadratic).
  const last = target.lastIndexOf('}}');
  const templated = last < 0 ? 0 : last + 2;
  return target.slice(0, templated).replace(/\{\{.*?\}\}|\s/g, encodeSpace) + target.slice(templated).replace(/\s/g, encodeSpace);
}

/** A whitespace character of a target percent-encoded; a `{{…}}` kept as written. */
function encodeSpace(match: string): string {
  return match.length > 1 ? match : match === ' ' ? '%20' : encodeURIComponent(match);
}

/** Parses one request line (continuation lines already joined by the caller). */
export function parseRequestLine(line: string, file: string, lineNo: number): RequestLine {
  const trimmed = line.trim();
  const indent = line.length - line.trimStart().length;
  // Whitespace no request line holds, which the target would otherwise carry encoded (%0D): a CR
  // that ends no line is a file with CR line ends, its headers and body read into the URL.
  const control = /[\r\v\f]/.exec(trimmed);
  if (control) {
    const cr = control[0] === '\r';
    throw new ParseError(file, lineNo, indent + control.index + 1, cr ? 'the request line holds a CR that ends no line: reqflow reads lines ended by LF or CRLF' : `the request line holds a ${control[0] === '\v' ? 'vertical tab (U+000B)' : 'form feed (U+000C)'}`, {
      hint: cr ? 'a file with CR line ends (an old Mac editor?): convert them, e.g. tr \'\\r\' \'\\n\'' : 'remove it, or encode it in the URL (%0B, %0C)',
    });
  }
  const parts = splitRequestLine(trimmed);
  const first = parts[0]?.text ?? '';
  let version: string | undefined;
  let end = trimmed.length;
  const last = parts.at(-1);
  if (parts.length > 1 && last && VERSION.test(last.text)) {
    version = VERSION.exec(last.text)?.[1];
    end = last.at;
  }
  // HTTP/1.0 too: Node's client speaks HTTP/1.1, and a request sent as another version is not the one written.
  if (version !== undefined && !/^1(\.1)?$/.test(version) && !/^2(\.0)?$/.test(version)) {
    throw new ParseError(file, lineNo, indent + (last?.at ?? 0) + 1, `HTTP/${version} is not supported: reqflow speaks HTTP/1.1 and HTTP/2 and will not send this request as another version`, {
      hint: 'write HTTP/2 or HTTP/1.1, or remove the version',
    });
  }
  const httpVersion = version === undefined ? undefined : version.startsWith('2') ? ('2' as const) : ('1.1' as const);
  // A URL alone is a GET, as in all three tools.
  if ((parts.length === 1 || (parts.length === 2 && version !== undefined)) && (BARE_URL.test(first) || looksSchemeless(first) || first.startsWith('/'))) {
    return versioned(withTarget({ method: 'GET', url: '', methodWritten: false }, first), httpVersion);
  }
  if (!METHOD_TOKEN.test(first)) {
    const bad = first.search(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/);
    throw new ParseError(file, lineNo, indent + Math.max(bad, 0) + 1, `invalid method ${JSON.stringify(clip(first))}`, { hint: 'the request line is: METHOD URL [HTTP/1.1], e.g. GET https://example.com' });
  }
  // JetBrains' and kulala's `run ./other.http`, `run #Name` and `import ./other.http` are directives, not a method `RUN`.
  if (first === 'run' || first === 'import') {
    throw new ParseError(file, lineNo, indent + 1, `"${first}" ${first === 'run' ? "(running another file's or request's requests from this one)" : "(another file's requests for `run`)"} is not supported: it is not sent as a request`, {
      hint: "run the other file with its own `reqflow run`, or refer to a request of it with httpyac's `# @import ./other.http` and `# @ref name`",
    });
  }
  let written = trimmed.slice(first.length, end).trim();
  let words = written.length > 0 && /\s/.test(written) ? splitRequestLine(written) : [];
  // `GET /r?a=1 # note`: a `#` after whitespace starts the fragment (never sent) or a comment,
  // so the whitespace before it is no part of the URL (it would go out as `?a=1%20`).
  const hash = words.findIndex((word, index) => index > 0 && word.text.startsWith('#'));
  if (hash > 0) {
    written = written.slice(0, words[hash]?.at).trimEnd();
    words = words.slice(0, hash);
  }
  // `GET /r // note`: a comment goes on a line of its own; read as the URL it would be sent (`%20//%20note`).
  const comment = words.find((word, index) => index > 0 && word.text.startsWith('//'));
  if (comment) throw new ParseError(file, lineNo, wordColumn(trimmed, first, indent, comment.at), `a comment after the URL: ${clip(written.slice(comment.at))}`, { hint: 'put it on a line of its own' });
  const target = targetOf(written);
  // Spaces are encoded only inside what starts as a URL: `this is not a request` stays an error.
  if (words.length > 1 && !startsLikeUrl(words[0]?.text ?? '')) {
    throw new ParseError(file, lineNo, wordColumn(trimmed, first, indent, words[1]?.at ?? 0), `unexpected text after the URL: ${clip(written.slice(words[1]?.at ?? 0))}`, { hint: 'the request line is: METHOD URL [HTTP/1.1]; encode spaces in the URL as %20' });
  }
  const upper = first.toUpperCase();
  // The asterisk-form (RFC 9112 §3.2.4) is OPTIONS's alone.
  if (target === '' || (target === '*' && upper !== 'OPTIONS')) throw new ParseError(file, lineNo, indent + first.length + 1, `request line has no URL: ${clip(trimmed)}`, { hint: 'write: METHOD URL, e.g. GET https://example.com (the target * is OPTIONS\'s only)' });
  if (target === '*') return versioned({ method: upper, url: '/', originForm: true, asteriskForm: true }, httpVersion);
  const protocol = PROTOCOL.exec(first);
  if (protocol?.[2]) return versioned(withTarget({ method: 'GET', url: '', sse: true }, target), httpVersion);
  if (protocol && !protocol[1]) throw new ProtocolLineError(file, lineNo, first);
  if (protocol || upper === 'WEBSOCKET') return versioned(withTarget({ method: 'GET', url: '', websocket: true }, target), httpVersion);
  if (upper === 'GRAPHQL') return versioned(withTarget({ method: 'POST', url: '', graphql: true }, target), httpVersion);
  const unsendable = unsendableMethod(first);
  if (unsendable) throw new ParseError(file, lineNo, indent + 1, unsendable, { hint: `write ${upper} if the server means that method` });
  return versioned(withTarget({ method: methodToSend(first), url: '' }, target), httpVersion);
}

/** The line with the version written at its end, if any (set on the line itself: no copy per request). */
function versioned(line: RequestLine, httpVersion: RequestLine['httpVersion']): RequestLine {
  if (httpVersion) line.httpVersion = httpVersion;
  return line;
}

/** The column of a word of the target (`at` within it) on the request line. */
function wordColumn(trimmed: string, method: string, indent: number, at: number): number {
  return indent + method.length + 1 + at + (trimmed.length - trimmed.slice(method.length).trimStart().length - method.length);
}

function startsLikeUrl(text: string): boolean {
  return BARE_URL.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith('/') || looksSchemeless(text);
}

/** `line` (made by the caller for this line alone) with its URL set from the target. */
function withTarget(line: RequestLine, target: string): RequestLine {
  if (target.startsWith('/') && !target.startsWith('//')) {
    line.url = target;
    line.originForm = true;
    return line;
  }
  // `localhost:8080/x`, `api.example.com/v1`: http://, as the reference tools do.
  line.url = withDefaultScheme(target);
  return line;
}

/**
 * `GET /path` + `Host: api.example.com:8080` → `http://api.example.com:8080/path` (https for
 * ports 443 and 8443, as VS Code and httpyac choose; kulala's `Host: https://…` names it). With no `Host:` header, the variable `host` goes before the path, as in httpyac
 * (`@host = http://localhost:8080`); without one either, resolving `{{host}}` is the error.
 */
export function originFormUrl(target: string, host: string | undefined): string {
  if (host === undefined || host.trim() === '') return `{{host}}${target}`;
  const name = host.trim();
  // kulala: `Host: https://api.example.com` holds the origin (the Host line then sends its authority).
  if (/^https?:\/\//i.test(name)) return `${name.replace(/\/+$/, '')}${target}`;
  return `${/:(443|8443)$/.test(name) ? 'https' : 'http'}://${name}${target}`;
}
