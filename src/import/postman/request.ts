/**
 * One Postman item to a request: URL (path variables filled, disabled query parameters left
 * out, as Postman sends it), enabled headers, the body by its mode, the inherited auth, and
 * the scripts of the collection, its folders and the item, in the order Postman runs them.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Item, RequestBody } from 'postman-collection';
import { UsageError } from '../../core/errors/index.js';
import { isInside, real } from '../../core/project.js';
import { formBody, MULTIPART_BOUNDARY } from '../form.js';
import { headerValue, urlWithoutSecrets } from '../secrets.js';
import type { ImportedBody, ImportedRequest, MultipartPart } from '../model.js';
import type { ImportVariables } from '../variables.js';
import { authOf } from './auth.js';
import { behaviorOf } from './behavior.js';
import { ScriptTranslator } from './scripts.js';
import { keptReference, postmanText, type LiteralTemplate } from './templates.js';

export interface PostmanContext {
  variables: ImportVariables;
  /** The collection file's folder: relative `src` paths of file bodies start there. */
  baseDir: string;
  warn(message: string): void;
  /** Called for each request that Postman would send following its redirects. */
  followsRedirects(): void;
  /** Records an oauth2 block's profile; returns the command that logs in with it. */
  oauthProfile(oauth: Record<string, string>): string;
  /** Records a template of `where` written literally (templates.ts), for the import's one warning. */
  literalTemplate(where: string): LiteralTemplate;
}

/** What the SDK's lists hold (its shipped types leave them untyped). */
export interface KeyValue {
  key: string;
  value?: unknown;
  disabled?: boolean;
  type?: string;
  src?: unknown;
  contentType?: string;
}

export const entries = (list: unknown): KeyValue[] => (list as { all(): KeyValue[] }).all();

/** Postman's dynamic variables that reqflow has under another name; the rest of its own are kept. */
const DYNAMIC: Record<string, string> = { $randomUUID: '$uuid', $isoTimestamp: '$isoTimestamp', $guid: '$guid', $timestamp: '$timestamp', $randomInt: '$randomInt' };

const LANGUAGE_TYPES: Record<string, string> = { json: 'application/json', xml: 'application/xml', html: 'text/html', javascript: 'application/javascript', text: 'text/plain' };

/** `{{$randomUUID}}` → `{{$uuid}}`; a dynamic variable reqflow does not have is named in a warning. */
function dynamicVariables(text: string, where: string, warn: (message: string) => void): string {
  return text.replace(/\{\{(\$[A-Za-z]+)\}\}/g, (whole, name: string) => {
    const own = DYNAMIC[name];
    if (own) return `{{${own}}}`;
    warn(`${where}: Postman's dynamic variable {{${name}}} has no equivalent in reqflow: define ${name.slice(1)} yourself`);
    return whole;
  });
}

/**
 * A file body's path. One outside the collection's folder that exists here is refused: a
 * collection someone gave you could name `~/.ssh/id_rsa` or `../../.aws/credentials`, sent to its
 * server by the first run (Postman itself reads no file outside its working folder unless told
 * to), and so is one reached through a symbolic link that leads outside it. An author's path
 * that does not exist here stays, and fails by name when run.
 */
function filePath(src: unknown, baseDir: string, where: string): string {
  const path = String(src ?? '');
  const full = isAbsolute(path) ? path : resolve(baseDir, path);
  // Real paths: a link inside the folder to a file outside it (an unpacked archive may hold one) is outside.
  const target = existsSync(full) ? real(full) : undefined;
  if (target !== undefined && !isInside(real(baseDir), target)) {
    const named = target === full ? full : `${full} (a link to ${target})`;
    throw new UsageError(`${where}: its body names the file ${named}, outside the collection's folder: not imported`, { hint: "copy the file into the collection's folder and name it there, then import again" });
  }
  return full;
}

function bodyOf(body: RequestBody, baseDir: string, warn: (message: string) => void, where: string, literal: LiteralTemplate): { body?: ImportedBody; contentType?: string; graphql?: { query: string; variables: string } } {
  const text = (value: string): string => postmanText(value, literal);
  switch (body.mode) {
    case 'raw': {
      const language = (body.options as { raw?: { language?: string } } | undefined)?.raw?.language ?? 'text';
      return { body: { kind: 'text', text: text(body.raw ?? ''), exact: false }, ...(LANGUAGE_TYPES[language] ? { contentType: LANGUAGE_TYPES[language] } : {}) };
    }
    case 'urlencoded': {
      const pairs = entries(body.urlencoded).filter((p) => !p.disabled).map((p): [string, string] => [p.key ?? '', String(p.value ?? '')]);
      // Every field disabled: Postman sends no body, and no Content-Type.
      if (pairs.length === 0) return {};
      return { body: { kind: 'text', text: formBody(pairs, keptReference(literal)), exact: false }, contentType: 'application/x-www-form-urlencoded' };
    }
    case 'formdata': {
      const parts: MultipartPart[] = entries(body.formdata)
        .filter((p) => !p.disabled)
        .flatMap((p): MultipartPart[] => {
          if (p.type === 'file') {
            // Several files under one field (`"src": ["a.txt", "b.txt"]`): a part each, as Postman sends them.
            return (Array.isArray(p.src) ? p.src : [p.src]).map((src) => {
              const file = filePath(src, baseDir, where);
              return { name: p.key, filename: file.split(/[/\\]/).at(-1) ?? 'file', contentType: p.contentType ?? 'application/octet-stream', value: { file } };
            });
          }
          return [{ name: p.key, ...(p.contentType ? { contentType: p.contentType } : {}), value: { text: text(String(p.value ?? '')) } }];
        });
      if (parts.length === 0) return {};
      return { body: { kind: 'multipart', boundary: MULTIPART_BOUNDARY, parts, exact: false }, contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` };
    }
    case 'file':
      return { body: { kind: 'file', path: filePath((body.file as { src?: unknown } | undefined)?.src, baseDir, where) } };
    case 'graphql': {
      const graphql = body.graphql as { query?: string; variables?: string } | undefined;
      const variables = (graphql?.variables ?? '').trim();
      return { graphql: { query: text((graphql?.query ?? '').trim()), variables: variables && variables !== '{}' ? text(variables) : '' } };
    }
    default:
      if (body.mode) warn(`${where}: Postman body mode "${body.mode}" is not imported`);
      return {};
  }
}

/**
 * A form-data body under a `Content-Type` the request sets itself: `multipart/form-data` without a
 * boundary gets the body's (else no server could split the parts), one with a boundary makes it
 * the body's, and any other type is sent as written, with a warning.
 */
function multipartType(headers: Array<[string, string]>, body: Extract<ImportedBody, { kind: 'multipart' }>, warn: (message: string) => void): void {
  const type = headers.find(([name]) => name.toLowerCase() === 'content-type');
  if (!type) return;
  if (!/^\s*multipart\//i.test(type[1])) {
    warn(`its form-data body goes with the Content-Type it sets, ${type[1].slice(0, 100)}: a server reads the parts only under multipart/form-data`);
    return;
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(type[1])?.[1];
  if (boundary === undefined) type[1] = `${type[1]}; boundary=${body.boundary}`;
  else body.boundary = boundary;
}

/** The scripts of one phase — the collection's, its folders', the item's (the SDK lists them in that order) — as one JetBrains script. */
function script(item: Item, listen: 'prerequest' | 'test', warn: (message: string) => void, where: string): string | undefined {
  const lines = item.events.listeners(listen).flatMap((event) => (event.disabled ? [] : ((event.script?.exec as string[] | undefined) ?? [])));
  if (lines.join('').trim() === '') return undefined;
  const { script: translated, unmapped } = new ScriptTranslator().translate(lines);
  if (unmapped.length > 0) warn(`${where}: ${listen === 'test' ? 'test' : 'pre-request'} script uses ${unmapped.join(', ')}, which reqflow's scripts do not have: kept as comments`);
  return translated;
}

/** Postman names an item without a name by its method and URL, as its app shows it. */
export function itemLabel(item: Item): string {
  return typeof item.name === 'string' && item.name !== '' ? item.name : `${item.request.method.toUpperCase()} ${item.request.url.toString()}`;
}

export function requestOf(item: Item, name: string, context: PostmanContext): ImportedRequest | undefined {
  const label = itemLabel(item);
  const where = `Postman request ${JSON.stringify(label)}`;
  const { variables, warn } = context;
  const request = item.request;
  // Control characters (a line break in a query value) go percent-encoded, as Postman sends them (WHATWG URL).
  const literal = context.literalTemplate(`request ${JSON.stringify(label)}`);
  const written = request.url
    .toString()
    .replace(/#.*$/s, '')
    // eslint-disable-next-line no-control-regex -- these are the characters meant
    .replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (c) => encodeURIComponent(c));
  // Only references to variables stay templates (templates.ts): before a value moves to the private file.
  let url = postmanText(written, literal);
  if (written === '') {
    warn(`${where} has no URL: not imported`);
    return undefined;
  }
  const method = request.method.toUpperCase();
  const behavior = behaviorOf(item, method, where, warn);
  if (behavior.followsRedirects) context.followsRedirects();
  const auth = authOf(item.getAuth(), variables, warn, where, literal);
  const comments = [...auth.comments];
  if (auth.oauth) comments.push(`OAuth 2.0: ${context.oauthProfile(auth.oauth)}`);
  url = urlWithoutSecrets(url, variables); // `?api_key=…` written in the URL: a variable, its value in the private file
  if (auth.query.length > 0) url += `${url.includes('?') ? '&' : '?'}${auth.query.map(([n, v]) => `${n}=${v}`).join('&')}`;
  const enabled = entries(request.headers).filter((h) => !h.disabled);
  // A header with no name cannot be sent (Postman drops it): written, it would make the whole file fail to parse.
  if (enabled.some((h) => (h.key ?? '').trim() === '')) warn(`${where}: a header with no name, left out as Postman leaves it out`);
  // A credential written in a header (Authorization, Cookie, a secret-looking name) moves to the private file, as curl's and a HAR's do.
  const named = enabled.filter((h) => (h.key ?? '').trim() !== '');
  let headers: Array<[string, string]> = named.map((h): [string, string] => [h.key, headerValue(h.key, dynamicVariables(postmanText(String(h.value ?? ''), literal), where, warn), variables)]);
  const has = (header: string): boolean => headers.some(([n]) => n.toLowerCase() === header.toLowerCase());
  // The auth's own header wins over one of that name the request writes: Postman's runtime removes the request's and adds the auth's.
  for (const [n, v] of auth.headers) {
    if (has(n)) {
      warn(`${where}: its own ${n} header is replaced by the auth it uses, as Postman sends it`);
      headers = headers.filter(([other]) => other.toLowerCase() !== n.toLowerCase());
    }
    headers.push([n, v]);
  }
  // An empty body is none (no Content-Type either), and a GET's is left out as Postman prunes it.
  const hasBody = request.body !== undefined && !request.body.disabled && !request.body.isEmpty();
  if (hasBody && behavior.pruneBody) comments.push(`Postman does not send the body of a ${method} request (its protocolProfileBehavior has no disableBodyPruning): left out`);
  const body = hasBody && !behavior.pruneBody && request.body ? bodyOf(request.body, context.baseDir, warn, where, literal) : {};
  if (body.contentType && !has('content-type')) headers.push(['Content-Type', body.contentType]);
  if (body.body?.kind === 'multipart') multipartType(headers, body.body, (message) => warn(`${where}: ${message}`));
  const pre = script(item, 'prerequest', warn, where);
  const post = script(item, 'test', warn, where);
  const text = body.body?.kind === 'text' ? { ...body.body, text: dynamicVariables(body.body.text, where, warn) } : body.body;
  // Postman resolves `{{host.{{one}}}}` inside out; reqflow resolves one level, and would leave `{{host.1}}` as text.
  // Looked for in the document's own text: the literal braces written for it hide a nesting.
  const raw = request.body?.mode === 'raw' ? (request.body.raw ?? '') : '';
  const nested = [written, ...named.map((h) => String(h.value ?? '')), raw].find((part) => /\{\{[^{}]*\{\{/.test(part));
  if (nested !== undefined) warn(`${where}: a variable inside a variable's name (${/\{\{[^{}]*\{\{[^]*?\}\}[^{}]*\}\}/.exec(nested.slice(0, 500))?.[0] ?? nested.slice(0, 500)}), which reqflow does not resolve: set the whole name with -e, or rewrite it`);
  return {
    name,
    ...(name !== label ? { title: label } : {}),
    comments,
    annotations: behavior.annotations,
    // JetBrains' GRAPHQL request: the query, then its variables; the GraphQL plugin sends the JSON.
    method: body.graphql !== undefined ? 'GRAPHQL' : method,
    url: dynamicVariables(url, where, warn),
    headers: body.graphql !== undefined ? headers.filter(([n]) => n.toLowerCase() !== 'content-type') : headers,
    ...(body.graphql !== undefined ? { graphql: body.graphql, body: { kind: 'text' as const, text: `${body.graphql.query}${body.graphql.variables ? `\n\n${body.graphql.variables}` : ''}`, exact: false } } : text ? { body: text } : {}),
    ...(pre !== undefined ? { preScript: pre } : {}),
    ...(post !== undefined ? { postScript: post } : {}),
  };
}
