/**
 * One curl command to requests (one per URL, as curl sends them): what curl would send, with
 * curl's defaults written out (`Content-Type` of `-d`, `-F`, `--json`) and credentials moved to
 * variables. An option that changes what is sent in a way a request file cannot say is exit 2
 * naming it; options about the connection or curl's output are named in a warning.
 */
import { isUtf8 } from 'node:buffer';
import { accessSync, constants, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { UsageError } from '../../core/errors/index.js';
import { maskUrl } from '../../core/mask.js';
import { notAFile } from '../../core/not-a-file.js';
import { MULTIPART_BOUNDARY, percentEncodeBytes } from '../form.js';
import { literalText } from '../http-text.js';
import { readImportedFile } from '../source.js';
import type { ImportedBody, ImportedRequest, MultipartPart } from '../model.js';
import { headerValue, urlWithoutSecrets } from '../secrets.js';
import type { ImportVariables } from '../variables.js';
import { CURL_FLAGS, type CurlCommand, type CurlOption } from './curl-flags.js';

/** Where curl's `@file` arguments are read: relative to the folder curl would run in, each within the import's size limit. */
interface DataFiles {
  /** Where curl would run: `@file` arguments are relative to it. */
  cwd: string;
  /** The most bytes a file read into the body may have (`--max-size`). */
  maxBytes: number;
}

export interface CurlContext extends DataFiles {
  variables: ImportVariables;
  warn(message: string): void;
}

/** A piece of `-d` and its kin, in order: curl joins them with `&`. */
type DataPiece = { text: string } | { file: string };

const REFUSED_HINTS: Record<string, string> = {
  config: 'import the command the config file makes',
  next: 'import each part of the command line on its own',
  'unix-socket': 'write the request, then run it with reqflow run --unix-socket PATH',
  ntlm: 'reqflow has no NTLM authentication',
  negotiate: 'reqflow has no Kerberos authentication',
  'aws-sigv4': 'the AWS SigV4 plugin signs requests: see docs/plugins.md',
};

/** Types curl gives a file part by its extension (else application/octet-stream). */
const FILE_TYPES: Record<string, string> = {
  '.gif': 'image/gif', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain',
  '.html': 'text/html', '.htm': 'text/html', '.json': 'application/json', '.xml': 'application/xml', '.pdf': 'application/pdf',
};

/** The `@file` of `written` as text: UTF-8 (a request file's body is text), else exit 2 naming it. */
function readText(files: DataFiles, path: string, written: string): string {
  const bytes = readData(files, path, written);
  if (!isUtf8(bytes)) throw new UsageError(`curl ${written} @${path}: the file is not UTF-8 text, which a request file cannot hold as written (its bytes would change)`, { hint: 'send a binary file alone with --data-binary @FILE (included byte for byte), or as a part with -F name=@FILE' });
  return bytes.toString('utf8');
}

/** The `@file` of `written` (`-d`, `-F`…): its bytes, or (`check`) only whether it can be read — a file to include is not read whole here. */
function readData(files: DataFiles, path: string, written: string, check = false): Buffer {
  if (path === '-') throw new UsageError(`curl ${written} @-: the data comes from standard input, which a request file cannot hold`, { hint: 'save the data to a file and use @FILE' });
  const full = resolve(files.cwd, path);
  const kind = notAFile(full, { pipe: true }); // the user's own command line, as curl reads it
  if (kind) throw new UsageError(`curl ${written} @${path}: it is ${kind}, not a file`, { hint: 'a device such as /dev/zero never ends: save the data to a file' });
  try {
    if (!check) return readImportedFile(full, files.maxBytes, `curl ${written} @${path}`);
    accessSync(full, constants.R_OK);
    if (statSync(full).isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    return Buffer.alloc(0);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`curl ${written} @${path}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { hint: '@FILE paths are relative to the folder reqflow import runs in' });
  }
}

/** `-d @file` as curl sends it: the bytes up to the first NUL, without CR and LF, as UTF-8 text. */
function curlDataFile(files: DataFiles, path: string, written: string): string {
  const bytes = readData(files, path, written);
  const nul = bytes.indexOf(0);
  const kept = Buffer.from((nul < 0 ? bytes : bytes.subarray(0, nul)).filter((byte) => byte !== 0x0d && byte !== 0x0a));
  if (!isUtf8(kept)) throw new UsageError(`curl ${written} @${path}: the file is not UTF-8 text, which a request file cannot hold as written (its bytes would change)`, { hint: 'send a binary file alone with --data-binary @FILE (included byte for byte), or as a part with -F name=@FILE' });
  return kept.toString('utf8');
}

/** `--data-urlencode` and `--url-query`: `content`, `=content`, `name=content`, `@file`, `name@file`. */
function urlencoded(files: DataFiles, option: CurlOption, text: string): string {
  const eq = text.indexOf('=');
  const at = text.indexOf('@');
  if (at >= 0 && (eq < 0 || at < eq)) {
    // The file's bytes, UTF-8 or not, each encoded as curl does.
    const name = text.slice(0, at);
    const content = percentEncodeBytes(readData(files, text.slice(at + 1), option.written), true);
    return name === '' ? content : `${name}=${content}`;
  }
  // curl's form encoding: a space is `+` (curl 7.88 sends `a+b`), everything else as formEncode.
  const encode = (value: string): string => percentEncodeBytes(Buffer.from(value, 'utf8'), true);
  if (eq < 0) return encode(text);
  const name = text.slice(0, eq);
  return name === '' ? encode(text.slice(1)) : `${name}=${encode(text.slice(eq + 1))}`;
}

/** `-F name=value`, `name=@file;type=x;filename=y`, `name=<file`: curl's own little syntax. */
function formPart(files: DataFiles, option: CurlOption, literal: boolean): MultipartPart {
  const text = option.value ?? '';
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`curl ${option.written} ${JSON.stringify(text)}: expected name=content`);
  const name = text.slice(0, eq);
  let content = text.slice(eq + 1);
  if (literal) return { name, value: { text: content } };
  const params: Record<string, string> = {};
  const kind = content.startsWith('@') ? 'file' : content.startsWith('<') ? 'content' : 'text';
  if (kind !== 'text' || !content.startsWith('"')) {
    // `;type=…` and `;filename=…` end the value; a quoted parameter keeps its `;` (`filename="a;b.txt"`).
    const [value = '', ...rest] = splitOutsideQuotes(content);
    content = value;
    for (const param of rest) {
      const [key = '', ...values] = param.split('=');
      params[key.trim()] = values.join('=').replace(/^"(.*)"$/s, '$1').replace(/\\(["\\])/g, '$1');
    }
  } else content = content.replace(/^"(.*)"$/s, '$1');
  if (params.headers !== undefined) throw new UsageError(`curl ${option.written} ${name}=…;headers=…: part headers cannot be written in a request file`);
  const type = params.type ? { contentType: params.type } : {};
  if (kind === 'text') return { name, ...type, value: { text: content } };
  const file = resolve(files.cwd, content.slice(1));
  readData(files, content.slice(1), option.written, true); // exists and readable, or exit 2 naming it
  if (kind === 'content') return { name, ...type, value: { file } };
  // curl guesses the type from the name the part is sent with (`filename=` when given).
  const filename = params.filename ?? basename(file);
  return { name, filename, contentType: params.type ?? FILE_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream', value: { file } };
}

/** `a;b="c;d";e` → `a`, `b="c;d"`, `e`: curl's `-F` parameters, split where no double quote is open. */
function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) i++;
    else if (char === '"') quoted = !quoted;
    else if (char === ';' && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `Name: value` of `-H` (`Name;` is an empty value; `Name:` removes a header curl would add). */
function headerOf(option: CurlOption): { name: string; value?: string } {
  const text = option.value ?? '';
  if (text.startsWith('@')) throw new UsageError(`curl ${option.written} @FILE: headers read from a file are not imported`, { hint: 'write the headers as -H options' });
  // Its value is never quoted: it may be a credential (`Authorization: Bearer …`).
  const colon = text.indexOf(':');
  if (/[\r\n]/.test(text)) throw new UsageError(`curl ${option.written} ${JSON.stringify(colon > 0 ? `${text.slice(0, colon)}: …` : '…')}: a header value with a line break cannot be sent`);
  const semicolon = /^([^:;\s]+);\s*$/.exec(text);
  if (semicolon) return { name: semicolon[1] as string, value: '' };
  if (colon <= 0) throw new UsageError(`curl ${option.written} with no "Name:" (${text.length} characters, not shown: it may be a credential): expected "Name: value"`);
  const value = text.slice(colon + 1).trim();
  return value === '' ? { name: text.slice(0, colon).trim() } : { name: text.slice(0, colon).trim(), value };
}

function withScheme(url: string, scheme: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `${scheme}://${url}`;
}

/** The URL with `.` and `..` segments of its path resolved, as curl sends it (`/a/b/../c/./d` → `/a/c/d`); the query as it is. */
function withoutDotSegments(url: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  const rest = url.slice(origin.length);
  const queryAt = rest.indexOf('?');
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  // `%2e` is a dot to curl too.
  const dots = (segment: string): string => segment.replace(/%2e/gi, '.');
  if (!/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return url;
  const out: string[] = [];
  const segments = path.split('/').slice(1);
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (dots(segment) === '.' || dots(segment) === '..') {
      if (dots(segment) === '..') out.pop();
      if (last) out.push(''); // `/a/b/..` is `/a/`
    } else out.push(segment);
  });
  return `${origin}/${out.join('/')}${queryAt < 0 ? '' : rest.slice(queryAt)}`;
}

/** `{a,b}` or `[1-3]` after the host: curl's URL globbing. */
function globbed(url: string): boolean {
  return /[{}[\]]/.test(url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, ''));
}

function appendQuery(url: string, query: string): string {
  if (query === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** Builds the requests of one command; `name` names each request (unique in its file). */
export function curlRequests(command: CurlCommand, context: CurlContext, name: (method: string, url: string) => string): ImportedRequest[] {
  const { cwd, variables, warn } = context;
  const files: DataFiles = context;
  let method: string | undefined;
  let head = false;
  let get = false;
  let json = false;
  let follow = false;
  let digest = false;
  let compressed = false;
  let http2 = false;
  let scheme = 'http';
  let user: string | undefined;
  let upload: string | undefined;
  const urls = [...command.urls];
  const headers: Array<{ name: string; value?: string }> = [];
  const data: DataPiece[] = [];
  const form: MultipartPart[] = [];
  const query: string[] = [];
  const cookies: string[] = [];
  const extra: Array<[string, string]> = [];
  const annotations: ImportedRequest['annotations'] = [];
  const tls: Record<string, string | { file: string }> = {};
  const ignored = new Map<string, string[]>();

  for (const option of command.options) {
    const value = option.value ?? '';
    const effect = CURL_FLAGS[option.name]?.effect;
    if (effect === 'refused') {
      throw new UsageError(`curl option ${option.written} cannot be written in a request file: it changes what is sent`, REFUSED_HINTS[option.name] ? { hint: REFUSED_HINTS[option.name] as string } : {});
    }
    if (effect === 'output' || effect === 'connection') {
      ignored.set(effect, [...(ignored.get(effect) ?? []), option.written]);
      continue;
    }
    switch (option.name) {
      case 'request': method = value.toUpperCase(); break;
      case 'url': urls.push(value); break;
      case 'header': headers.push(headerOf(option)); break;
      case 'data': case 'data-ascii':
        // curl reads `@file` for these, drops its line breaks and stops at a NUL byte (a C string).
        data.push({ text: value.startsWith('@') ? curlDataFile(files, value.slice(1), option.written) : value });
        break;
      case 'data-binary':
        if (!value.startsWith('@')) data.push({ text: value });
        else {
          readData(files, value.slice(1), option.written, true); // exists and readable, or exit 2 naming it
          data.push({ file: resolve(cwd, value.slice(1)) });
        }
        break;
      case 'data-raw': data.push({ text: value }); break;
      case 'data-urlencode': data.push({ text: urlencoded(files, option, value) }); break;
      case 'json':
        json = true;
        data.push({ text: value.startsWith('@') ? readText(files, value.slice(1), option.written) : value });
        break;
      case 'form': form.push(formPart(files, option, false)); break;
      case 'form-string': form.push(formPart(files, option, true)); break;
      case 'user': user = value; break;
      case 'digest': digest = !option.off; break;
      case 'basic': digest = false; break;
      case 'cookie':
        // A value without `=` names a cookie file to read (and turns on curl's cookie engine).
        if (value.includes('=')) cookies.push(value);
        else if (value !== '') throw new UsageError(`curl ${option.written} ${value}: cookies read from a file are not imported`, { hint: 'pass the cookies as -b "name=value; name2=value2"; reqflow keeps the cookies servers set (docs/cookies.md)' });
        break;
      case 'insecure': annotations.push(['tls.insecureSkipVerify', option.off ? 'false' : 'true']); break;
      case 'cert': {
        // `file:passphrase`, unless the colon belongs to the path (`C:\…`, or a file that exists).
        const colon = value.lastIndexOf(':');
        const passphrase = colon > 1 && !/^[A-Za-z]:[\\/]/.test(value.slice(colon - 1)) ? value.slice(colon + 1) : undefined;
        tls.certFile = { file: resolve(cwd, passphrase === undefined ? value : value.slice(0, colon)) };
        if (passphrase !== undefined) tls.passphrase = `{{${variables.secret('certPassphrase', literalText(passphrase))}}}`;
        break;
      }
      case 'key': tls.keyFile = { file: resolve(cwd, value) }; break;
      case 'cacert': tls.caFile = { file: resolve(cwd, value) }; break;
      case 'pass': tls.passphrase = `{{${variables.secret('certPassphrase', literalText(value))}}}`; break;
      case 'cert-type': tls.certType = value.toUpperCase(); break;
      case 'location': case 'location-trusted': follow = !option.off; break;
      case 'compressed': compressed = !option.off; break;
      case 'get': get = !option.off; break;
      case 'head': head = !option.off; break;
      case 'user-agent': extra.push(['User-Agent', value]); break;
      case 'referer': extra.push(['Referer', value.replace(/;auto$/, '')]); break;
      case 'max-time': annotations.push(['timeout', value]); break;
      case 'connect-timeout': annotations.push(['connection-timeout', `${value} s`]); break;
      case 'retry': annotations.push(['retry', value]); break;
      case 'upload-file': upload = value; break;
      case 'oauth2-bearer': extra.push(['Authorization', `Bearer ${value}`]); break;
      case 'range': extra.push(['Range', `bytes=${value}`]); break;
      case 'url-query': query.push(value.startsWith('+') ? value.slice(1) : urlencoded(files, option, value)); break;
      case 'http2-prior-knowledge': http2 = !option.off; break;
      case 'proto-default': scheme = value; break;
      default: break; // http1.1, http2 (negotiated: the same request), globoff, path-as-is
    }
  }
  for (const flag of command.unknown) warn(`unknown curl option ${flag}: not imported — check that the request does not need it`);
  if (ignored.has('connection')) warn(`curl options about the connection, not the request, are not imported: ${ignored.get('connection')?.join(' ')} (see reqflow run --help for --proxy and the other run flags)`);
  if (urls.length === 0) throw new UsageError('the curl command has no URL');

  if (tls.certType === 'P12' && typeof tls.certFile === 'object') {
    annotations.push(['tls.pfxFile', tls.certFile]);
    delete tls.certFile;
  }
  delete tls.certType;
  for (const [key, value] of Object.entries(tls)) annotations.push([`tls.${key}`, value]);

  const removed = new Set(headers.filter((h) => h.value === undefined).map((h) => h.name.toLowerCase()));
  for (const name of removed) if (name === 'user-agent' || name === 'accept') warn(`curl -H "${name}:" removes a header; reqflow sends its own ${name} header (write one to replace it)`);
  // curl has no templates: a `{{` it was given is sent as written.
  const written: Array<[string, string]> = headers.filter((h) => h.value !== undefined).map((h) => [h.name, literalText(h.value as string)]);
  const has = (name: string): boolean => removed.has(name.toLowerCase()) || written.some(([n]) => n.toLowerCase() === name.toLowerCase());
  const add = (name: string, value: string): void => void (has(name) ? undefined : written.push([name, value]));
  for (const [name, value] of extra) add(name, literalText(value));
  if (cookies.length > 0) add('Cookie', literalText(cookies.join('; ')));
  if (user !== undefined && !has('Authorization')) {
    const colon = user.indexOf(':');
    const username = colon < 0 ? user : user.slice(0, colon);
    if (colon < 0) warn(`curl -u ${username} asks for the password: it is the variable "password", empty until you set it`);
    const password = `{{${variables.secret('password', colon < 0 ? '' : literalText(user.slice(colon + 1)))}}}`;
    // `-u KEY:` (an API key as the user name, no password) is a secret of its own.
    const userSecret = colon >= 0 && user.slice(colon + 1) === '';
    const shownUser = userSecret ? `{{${variables.secret('username', literalText(username))}}}` : /\s/.test(username) || username === '' ? `{{${variables.parameter('username', literalText(username))}}}` : literalText(username);
    add('Authorization', `${digest ? 'Digest' : 'Basic'} ${shownUser} ${password}`);
  }
  if (compressed) add('Accept-Encoding', 'gzip, deflate, br');

  let body: ImportedBody | undefined;
  const joined = (): string => data.map((piece) => ('text' in piece ? piece.text : readText(files, piece.file, '--data-binary'))).join(json ? '' : '&');
  if (get || head) {
    if (data.length > 0) query.push(joined());
  } else if (form.length > 0) {
    if (data.length > 0) throw new UsageError('curl -F and -d in one command: curl refuses them together');
    const type = written.find(([n]) => n.toLowerCase() === 'content-type');
    if (type && !/boundary=/i.test(type[1])) type[1] = `${type[1]}; boundary=${MULTIPART_BOUNDARY}`;
    const boundary = /boundary="?([^";]+)"?/i.exec(type?.[1] ?? '')?.[1] ?? MULTIPART_BOUNDARY;
    add('Content-Type', `multipart/form-data; boundary=${boundary}`);
    body = { kind: 'multipart', boundary, parts: form, exact: true };
  } else if (upload !== undefined) {
    if (upload === '-' || upload === '.') throw new UsageError(`curl -T ${upload}: the body comes from standard input, which a request file cannot hold`);
    readData(files, upload, '-T', true);
    body = { kind: 'file', path: resolve(cwd, upload) };
  } else if (data.length > 0) {
    if (json) {
      add('Content-Type', 'application/json');
      add('Accept', 'application/json');
    } else add('Content-Type', 'application/x-www-form-urlencoded');
    const only = data.length === 1 ? data[0] : undefined;
    body = only && 'file' in only ? { kind: 'file', path: only.file } : { kind: 'text', text: joined(), exact: true };
  }
  const verb = method ?? (head ? 'HEAD' : get ? 'GET' : upload !== undefined ? 'PUT' : body ? 'POST' : 'GET');
  const comments = follow ? ['curl -L follows redirects: run with reqflow run -L'] : [];
  if (follow) warn('curl -L follows redirects; a request file cannot say so: run it with reqflow run -L');

  return urls.map((raw) => {
    // The fragment is never sent; a `-T file` to a URL ending in `/` names the file there (as curl does).
    let url = appendQuery(withScheme(raw, scheme).replace(/#.*$/s, ''), query.join('&'));
    // curl resolves `.` and `..` in the path before sending (RFC 3986 §5.2.4), unless --path-as-is.
    if (!command.options.some((o) => o.name === 'path-as-is')) url = withoutDotSegments(url);
    if (upload !== undefined && url.endsWith('/')) url += encodeURIComponent(basename(upload));
    if (globbed(url) && !command.options.some((o) => o.name === 'globoff')) {
      warn(`curl would expand {…} and […] in ${JSON.stringify(maskUrl(raw))} into several URLs (unless -g): imported as written`);
    }
    return {
      name: name(verb, url),
      comments,
      annotations: [...annotations],
      method: verb,
      url: urlWithoutSecrets(literalText(url), variables),
      ...(http2 ? { http2: true as const } : {}),
      headers: written.map(([n, v]): [string, string] => [n, headerValue(n, v, variables)]),
      ...(body ? { body } : {}),
    };
  });
}
