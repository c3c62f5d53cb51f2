/**
 * `reqflow import openapi SPEC`: one `.http` file per tag, one request per operation, named by
 * its operationId; parameters and the server are variables of the environment file.
 */
import { basename, extname } from 'node:path';
import type { ImportedFile, ImportedRequest, Imported, ImportOptions } from '../model.js';
import { slug, UniqueNames } from '../names.js';
import { literalText } from '../http-text.js';
import { asRecord } from '../source.js';
import { ImportVariables } from '../variables.js';
import { bodyOf, Sampler, valueText } from './examples.js';
import { loadSpec, type SpecVersion } from './load-spec.js';
import { operationsOf, type Operation, type Parameter } from './operations.js';
import { SecurityMapper } from './security.js';

/** A server's URL with each `{name}` replaced by `replace(name, its default)`; a spec has no templates, so its `{{` are literal. */
function serverUrl(server: Record<string, unknown> | undefined, replace: (name: string, value: string) => string): string {
  let url = literalText(typeof server?.url === 'string' ? server.url : '');
  for (const [name, spec] of Object.entries(asRecord(server?.variables) ?? {})) url = url.replaceAll(`{${name}}`, replace(name, literalText(valueText(asRecord(spec)?.default))));
  return url;
}

/** A relative server URL (`/api/v3`) on http://localhost, said in a warning. */
function absolute(url: string, where: string, warn: (m: string) => void): string {
  if (/^https?:\/\//i.test(url) || url.startsWith('{{')) return url.replace(/\/+$/, '');
  warn(`${where} names no absolute server URL${url ? ` ("${url}")` : ''}: it is http://localhost${url} — correct it in the request file or http-client.env.json`);
  return `http://localhost${url.startsWith('/') || url === '' ? url : `/${url}`}`.replace(/\/+$/, '');
}

/** `https://{region}.example.com/v1` → `https://{{region}}.example.com/v1`, its variables' defaults defined. */
function baseUrlOf(document: Record<string, unknown>, version: SpecVersion, variables: ImportVariables, warn: (m: string) => void): string {
  let url: string;
  if (version === '2.0') {
    const scheme = Array.isArray(document.schemes) && typeof document.schemes[0] === 'string' ? document.schemes[0] : 'https';
    url = literalText(typeof document.host === 'string' ? `${scheme}://${document.host}${typeof document.basePath === 'string' ? document.basePath : ''}` : String(document.basePath ?? ''));
  } else {
    const server = asRecord(Array.isArray(document.servers) ? document.servers[0] : undefined);
    url = serverUrl(server, (name, value) => `{{${variables.parameter(name, value)}}}`);
    const others = (Array.isArray(document.servers) ? document.servers.slice(1) : []).map((s) => asRecord(s)?.url).filter((u): u is string => typeof u === 'string');
    if (others.length > 0) warn(`the spec lists ${others.length + 1} servers; baseUrl is the first — the others: ${others.join(', ')}`);
  }
  return variables.parameter('baseUrl', absolute(url, 'the spec', warn));
}

/**
 * The server of an operation that names its own (or whose path item does): they replace the
 * spec's, so its requests go there and not to baseUrl. Its variables' defaults are written in
 * place: two operations' servers may give one variable name two different defaults.
 */
function operationServer(operation: Operation, name: string, warn: (m: string) => void): string | undefined {
  if (!operation.servers) return undefined;
  const url = absolute(serverUrl(asRecord(operation.servers[0]), (_, value) => value), `operation ${name}`, warn);
  if (operation.servers.length > 1) warn(`operation ${name} lists ${operation.servers.length} servers of its own: it is sent to the first, ${url}`);
  return url;
}

interface Context {
  variables: ImportVariables;
  sampler: Sampler;
  security: SecurityMapper;
  baseUrl: string;
  warn(message: string): void;
}

/**
 * A query parameter as OpenAPI serializes it (style `form` and `explode` by default): an array
 * `tags=x&tags=y` (exploded) or `tags=x,y`, `x y`, `x|y`; an object `a=1&b=2` (exploded form),
 * `filter[a]=1` (deepObject) or `filter=a,1`. Each value is a variable of its own.
 */
function queryPairs(p: Parameter, value: unknown, encoded: (name: string, text: string) => string): string[] {
  const style = p.style ?? 'form';
  const explode = p.explode ?? style === 'form';
  const numbered = (index: number): string => (index === 0 ? p.name : `${p.name}${index + 1}`);
  if (Array.isArray(value) && value.length > 0) {
    if (explode && style === 'form') return value.map((item, index) => `${p.name}=${encoded(numbered(index), valueText(item))}`);
    // The delimiter as the spec writes it (`ids=1,2`, `x|y`; a space is %20), each value a variable of its own.
    const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    return [`${p.name}=${value.map((item, index) => encoded(numbered(index), valueText(item))).join(separator)}`];
  }
  const object = asRecord(value);
  if (object) {
    const entries = Object.entries(object);
    if (style === 'deepObject') return entries.map(([key, item]) => `${p.name}[${key}]=${encoded(`${p.name}_${key}`, valueText(item))}`);
    if (explode && style === 'form') return entries.map(([key, item]) => `${key}=${encoded(key, valueText(item))}`);
    return [`${p.name}=${entries.map(([key, item]) => `${encodeURIComponent(key)},${encoded(`${p.name}_${key}`, valueText(item))}`).join(',')}`];
  }
  return [`${p.name}=${encoded(p.name, valueText(value))}`];
}

function requestOf(operation: Operation, name: string, context: Context): ImportedRequest {
  const { variables } = context;
  const example = (p: Parameter): unknown => p.example ?? context.sampler.make(p.schema, `parameter ${p.name}`);
  // An example is sent as the spec writes it: its `{{` literal in the environment file too.
  const value = (p: Parameter): string => `{{${variables.parameter(p.name, literalText(valueText(example(p))))}}}`;
  // In the path and the query a value is sent percent-encoded (`{{%name}}`): `a/b c` is one segment, `a%2Fb%20c`.
  const encoded = (name: string, text: string): string => `{{%${variables.parameter(name, literalText(text))}}}`;
  const path = operation.path.replace(/\{([^{}]+)\}/g, (_, param: string) => {
    const declared = operation.parameters.find((p) => p.in === 'path' && p.name === param);
    return declared ? encoded(declared.name, valueText(example(declared))) : encoded(param, '');
  });
  const comments: string[] = [];
  const credentials = context.security.credentials(operation.security);
  // Optional query parameters without an example would send `name=`: they are listed instead.
  const optional = operation.parameters.filter((p) => p.in === 'query' && !p.required && p.example === undefined);
  if (optional.length > 0) comments.push(`optional query parameters: ${optional.map((p) => p.name).join(', ')}`);
  const query = [...operation.parameters.filter((p) => p.in === 'query' && !optional.includes(p)).flatMap((p) => queryPairs(p, example(p), encoded)), ...credentials.query.map(([n, v]) => `${n}=${v}`)];
  const headers: Array<[string, string]> = operation.parameters.filter((p) => p.in === 'header' && !/^(accept|content-type|authorization)$/i.test(p.name)).map((p) => [p.name, value(p)]);
  const cookies = [...operation.parameters.filter((p) => p.in === 'cookie').map((p) => `${p.name}=${value(p)}`), ...credentials.cookies];
  headers.push(...credentials.headers);
  if (cookies.length > 0) headers.push(['Cookie', cookies.join('; ')]);
  comments.push(...credentials.comments);
  const request: ImportedRequest = {
    name,
    ...(operation.summary ? { title: operation.summary } : {}),
    comments,
    annotations: [],
    method: operation.method,
    url: `${operationServer(operation, name, context.warn) ?? `{{${context.baseUrl}}}`}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`,
    headers,
  };
  if (operation.body) {
    const { contentType, body, notes } = bodyOf(operation.body, context.sampler, `the body of ${name}`);
    headers.unshift(['Content-Type', contentType]);
    comments.push(...notes);
    request.body = body;
  }
  return request;
}

export async function importOpenApi(source: string, options: ImportOptions): Promise<Imported> {
  const { version, document } = await loadSpec(source, options.warn, options.maxBytes);
  const variables = new ImportVariables();
  const stem = slug(basename(source, extname(source)), 'openapi');
  const schemes = asRecord(version === '2.0' ? document.securityDefinitions : asRecord(document.components)?.securitySchemes) ?? {};
  const profilesFile = `${stem}.profiles.json`;
  const context: Context = {
    variables,
    sampler: new Sampler(document, options.warn),
    security: new SecurityMapper(schemes, variables, options.warn, profilesFile),
    baseUrl: baseUrlOf(document, version, variables, options.warn),
    warn: options.warn,
  };
  const info = asRecord(document.info);
  const title = typeof info?.title === 'string' ? info.title : stem;
  const files = new Map<string, ImportedFile & { names: UniqueNames }>();
  const operations = operationsOf(document, version);
  for (const operation of operations) {
    const tag = operation.tags[0] ?? title;
    const path = `${slug(tag, 'default')}.http`;
    let file = files.get(path);
    if (!file) {
      const tagInfo = (Array.isArray(document.tags) ? document.tags : []).map(asRecord).find((t) => t?.name === tag);
      file = { path, header: [`${title}${typeof info?.version === 'string' ? ` ${info.version}` : ''}: ${tag}`, ...(typeof tagInfo?.description === 'string' ? [tagInfo.description] : []), `Imported by reqflow import openapi from ${basename(source)}.`], requests: [], names: new UniqueNames() };
      files.set(path, file);
    }
    const name = file.names.take(operation.operationId ? operation.operationId.replace(/\s+/g, '-') : slug(`${operation.method} ${operation.path}`));
    file.requests.push(requestOf(operation, name, context));
  }
  if (operations.length === 0) options.warn(`${source} has no operations: only the environment is written`);
  const profiles = context.security.profiles;
  return {
    files: [...files.values()].map(({ names: _names, ...file }) => file),
    variables,
    envName: options.envName ?? 'dev',
    extraFiles: profiles.length > 0 ? [{ path: profilesFile, text: `${JSON.stringify(profiles, null, 2)}\n` }] : [],
  };
}
