/**
 * `reqflow send [METHOD] URL [-H …] [-d …|--json …|--form …] [--auth …] [-u …]`: the request
 * the arguments describe, built as if read from a one-request file in the current folder
 * (`<send>`), so it runs through the same loop as a file's: profile, session, auth, cookies,
 * output, checks, exit codes, --dry-run. Anything it cannot send as written is refused here,
 * before anything is sent.
 */
import { join } from 'node:path';
import { codePointName } from '../core/code-point.js';
import { withDefaultScheme } from '../core/default-scheme.js';
import { UsageError } from '../core/errors/index.js';
import { appendHeader, hasHeader, NON_ASCII_HINT, NOT_IN_HEADER_VALUE, setHeader, singleFieldRule, unheldNameRule, type RequestHeaders } from '../core/headers.js';
import { parseRequestUrl } from '../core/http/send.js';
import { isStandardMethod, METHOD_TOKEN, methodToSend, unsendableMethod } from '../core/methods.js';
import type { BodyPart, RequestSpec } from '../core/model.js';
import { multipartParts, newBoundary, type FormField } from '../core/multipart.js';
import { outsideTemplates } from '../core/variables.js';
import { listedRequests } from '../pipeline/request-file.js';
import type { RequestSource } from './request-source.js';
import type { RawSendFlags } from './send-flags.js';

/** How `reqflow send`'s request is named in messages (a file that no folder holds). */
/** The request "file" of a request `reqflow send` makes: no file holds it (history replay says so). */
export const SEND_NAME = '<send>';
const USAGE = 'usage: reqflow send [METHOD] URL [-H "Name: value"] [-d BODY | --json JSON | --form NAME=VALUE] (see reqflow send --help)';
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** `[METHOD] URL` from the arguments. */
function methodAndUrl(args: readonly string[]): { method?: string; url: string } {
  const [first, second, extra] = args;
  if (first === undefined) throw new UsageError('missing URL', { hint: USAGE });
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra.slice(0, 60)}"`, { hint: USAGE });
  if (second === undefined) {
    if (isStandardMethod(first)) throw new UsageError(`missing URL after ${first}`, { hint: USAGE });
    return { url: first };
  }
  // `send URL Header:value`, `send URL a=1` (httpie's items), `send URL POST`: the URL came first.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(first) || first.startsWith('{{')) {
    throw new UsageError(`unexpected argument "${second.slice(0, 60)}" after the URL`, { hint: `the method goes before the URL, headers and data go in curl's flags (-H "Name: value", -d "a=1", --json '{"a": 1}'): ${USAGE}` });
  }
  if (!METHOD_TOKEN.test(first)) throw new UsageError(`invalid method ${JSON.stringify(first.slice(0, 40))}`, { hint: USAGE });
  const unsendable = unsendableMethod(first);
  if (unsendable) throw new UsageError(unsendable, { hint: `write ${first.toUpperCase()} if the server means that method` });
  return { method: methodToSend(first), url: second };
}

/** A URL with templates is checked once they are resolved; any other is checked now, in one line. */
function checkedUrl(url: string): string {
  if (url.includes('{{')) return url;
  try {
    parseRequestUrl(withDefaultScheme(url));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (reqflow send takes an http:// or https:// URL)`);
  }
  return url;
}

/** `-H "Name: value"`, each a line of the request's headers. */
/** Headers reqflow always sends (core/headers.ts adds them; Node's keep-alive its Connection): curl's `-H 'Name:'` would remove them. */
const ALWAYS_SENT = new Set(['host', 'user-agent', 'accept', 'connection']);

/** The headers, and the names `-H 'Name:'` removes (lower case): a body flag's default (`Content-Type`) is not added for them. */
function headersOf(lines: readonly string[]): { headers: RequestHeaders; removed: Set<string> } {
  const headers: RequestHeaders = {};
  const removed = new Set<string>();
  for (const line of lines) {
    // curl's `-H 'Name;'`: the header sent with no value.
    const empty = /^\s*([^:;\s]+)\s*;\s*$/.exec(line)?.[1];
    const colon = empty !== undefined ? -1 : line.indexOf(':');
    const name = empty ?? (colon < 0 ? line.trim() : line.slice(0, colon).trim());
    if ((colon < 0 && empty === undefined) || !TOKEN.test(name)) throw new UsageError(`-H expects "Name: value", got ${JSON.stringify(line.slice(0, 60))}`, { hint: 'for example: -H "Accept: application/json" ("Name;" for an empty value)' });
    const value = empty !== undefined ? '' : line.slice(colon + 1).trim();
    // curl's `-H 'Name:'` sends no such header: one reqflow adds would go out all the same, so it is refused.
    if (empty === undefined && value === '') {
      if (ALWAYS_SENT.has(name.toLowerCase())) throw new UsageError(`-H "${name}:" would remove ${name} (curl's meaning), which reqflow always sends`, { hint: `give it a value, or "${name};" to send it empty` });
      removed.add(name.toLowerCase());
      continue;
    }
    // A line break would make it two headers, or a body: never sent as something else.
    const bad = NOT_IN_HEADER_VALUE.exec(outsideTemplates(value))?.[0];
    if (bad !== undefined) throw new UsageError(`-H ${name}: the value holds ${/[\r\n]/.test(bad) ? 'a line break' : `a character a header cannot hold (${codePointName(bad)})`}`, { hint: /[\r\n]/.test(bad) || bad < '\u0080' ? 'a header value is one line of visible ASCII characters' : NON_ASCII_HINT });
    const rule = singleFieldRule(name);
    if (rule !== undefined && hasHeader(headers, name)) throw new UsageError(`-H ${name} is given twice: ${rule}`);
    const unheld = unheldNameRule(name);
    if (unheld !== undefined) throw new UsageError(`-H ${name}: ${unheld}`);
    appendHeader(headers, name, value);
  }
  return { headers, removed };
}

/** `text` or `@file` (bytes as they are, relative to the current folder). */
function dataPart(value: string, flag: string): BodyPart {
  if (!value.startsWith('@')) return { kind: 'text', text: value };
  const path = value.slice(1);
  if (path === '' || path === '-') throw new UsageError(`${flag} ${value}: reqflow send takes a body from text or a file, not from stdin`, { hint: 'write it to a file (-d @body.json), or put the whole request in a file and run it with reqflow run - < request.http' });
  return { kind: 'file', path, substitute: false, line: 1 };
}

/** `name=value` or `name=@file[;type=mime]`. */
function formField(text: string): FormField {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--form expects NAME=VALUE or NAME=@FILE, got ${JSON.stringify(text.slice(0, 60))}`);
  const name = text.slice(0, eq);
  const value = text.slice(eq + 1);
  // curl reads these as a file's text and as a part's type: sent as a text value they would be another request.
  if (value.startsWith('<') || (/;\s*(type|filename|headers|encoder)=/.test(value) && !value.startsWith('@'))) {
    throw new UsageError(`--form ${name}=${value.slice(0, 60)}: curl's ${value.startsWith('<') ? '<FILE (a file\'s text as the value)' : ';type= on a text part'} is not taken by reqflow send`, { hint: 'a file part is NAME=@FILE[;type=TYPE]; a text value is NAME=VALUE (write the request in a .http file for other part headers)' });
  }
  if (!value.startsWith('@')) return { name, value };
  const typed = /^(.*);type=([^;]+)$/.exec(value.slice(1));
  const file = typed?.[1] ?? value.slice(1);
  if (file === '' || file === '-') throw new UsageError(`--form ${name}=${value}: a file part needs a file name`);
  return { name, file, type: typed?.[2] ?? 'application/octet-stream' };
}

/** Joins the text and file parts of a body: one string when there are no files. */
function body(parts: readonly BodyPart[]): Pick<RequestSpec, 'body' | 'bodyParts'> {
  return parts.every((part) => part.kind === 'text') ? { body: parts.map((part) => (part as { text: string }).text).join('') } : { bodyParts: [...parts] };
}

/** The body and the headers it implies, from the one body flag given (-d, --json or --form). */
function bodyOf(flags: RawSendFlags, headers: RequestHeaders, removed: ReadonlySet<string>): Pick<RequestSpec, 'body' | 'bodyParts' | 'bodyLineEnding'> {
  const given = (['data', 'json', 'form'] as const).filter((name) => (flags[name]?.length ?? 0) > 0);
  if (given.length === 0) return {};
  const shown = given.map((name) => (name === 'data' ? '-d' : `--${name}`));
  if (given.length > 1) throw new UsageError(`${shown.join(' and ')} both give the body: a request has one`, { hint: 'pick one: -d for text or a file, --json for JSON, --form for a multipart form' });
  const setDefault = (name: string, value: string): void => {
    if (!hasHeader(headers, name) && !removed.has(name.toLowerCase())) setHeader(headers, name, value);
  };
  if (flags.data) {
    // Several -d are one form, joined with & (curl's way).
    const parts = flags.data.flatMap((value, i) => [...(i > 0 ? [{ kind: 'text', text: '&' } as const] : []), dataPart(value, '-d')]);
    setDefault('Content-Type', 'application/x-www-form-urlencoded');
    return body(parts);
  }
  if (flags.json) {
    if (flags.json.length > 1) throw new UsageError('--json is given twice: a request has one JSON body');
    setDefault('Content-Type', 'application/json');
    setDefault('Accept', 'application/json');
    return body([dataPart(flags.json[0] as string, '--json')]);
  }
  // The boundary is in Content-Type: one the user wrote would not match the body.
  if (hasHeader(headers, 'Content-Type')) throw new UsageError('--form writes Content-Type itself (multipart/form-data with its boundary)', { hint: 'leave -H "Content-Type: …" out' });
  const boundary = newBoundary();
  setHeader(headers, 'Content-Type', `multipart/form-data; boundary=${boundary}`);
  return { ...body(multipartParts((flags.form ?? []).map(formField), boundary, 1)), bodyLineEnding: 'crlf' };
}

/** `-u user:password`: the `Authorization: Basic user:password` shorthand of the .http tools, encoded by auth-basic. */
function basicAuth(user: string, flags: RawSendFlags, headers: RequestHeaders): string {
  const colon = user.indexOf(':');
  if (colon <= 0) throw new UsageError('-u expects USER:PASSWORD', { hint: 'for example: -u alice:s3cret, or -u "alice:{{password}}" for a variable' });
  if (/\s/.test(user.slice(0, colon))) throw new UsageError('-u: the user name holds a space, which basic auth cannot carry here', { hint: 'set the username and password variables with # @auth basic instead (docs/auth.md)' });
  if (hasHeader(headers, 'Authorization')) throw new UsageError('-u and -H Authorization both give the credentials: a request has one');
  if (flags.auth !== undefined && flags.auth !== 'basic') throw new UsageError(`-u is basic auth, and --auth ${flags.auth} asks for another method`, { hint: 'drop one of them' });
  setHeader(headers, 'Authorization', `Basic ${user}`);
  return user.slice(colon + 1);
}

/** The request of `reqflow send`, as a source of one request in the current folder. */
export function sendSource(args: readonly string[], flags: RawSendFlags, io: { cwd: string }): RequestSource {
  return {
    path: join(io.cwd, SEND_NAME),
    load: ({ secrets }) => {
      const { method, url } = methodAndUrl(args);
      if (flags.auth !== undefined && flags.auth.trim() === '') throw new UsageError('--auth expects a method: bearer, apikey, basic, digest, custom, oauth2, none, or a plugin\'s');
      const { headers, removed } = headersOf(flags.header ?? []);
      if (flags.user !== undefined) secrets.add(basicAuth(flags.user, flags, headers));
      const content = bodyOf(flags, headers, removed);
      const spec: RequestSpec = {
        name: 'request-1',
        // A body with no method is a POST, as with curl -d.
        method: method ?? (content.body !== undefined || content.bodyParts !== undefined ? 'POST' : 'GET'),
        ...(method === undefined ? { methodWritten: false } : {}),
        url: checkedUrl(url),
        headers,
        ...content,
        annotations: flags.auth !== undefined ? { auth: flags.auth } : {},
        source: { file: SEND_NAME, line: 1, index: 0, locatedBy: 'nothing' },
      };
      return Promise.resolve(listedRequests([spec]));
    },
  };
}
