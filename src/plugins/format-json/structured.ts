import { METHOD_TOKEN, methodToSend, unsendableMethod } from '../../core/methods.js';
import { placeName } from '../../core/place-name.js';
import { UsageError } from '../../core/errors/index.js';
import { appendHeader, setHeader, hasHeader, singleFieldRule, unheldNameRule, type RequestHeaders } from '../../core/headers.js';
import type { ChainSpec, RequestSpec } from '../../core/model.js';
import { parseEscapes } from '../../core/escapes.js';
import { isLosslessNumber, nonFinitePath, stringifyJsonValue } from '../../core/json-exact.js';
import { validateTls } from '../../core/profiles.js';
import type { TlsSettings } from '../../core/tls-settings.js';
import { isObject, requestItems } from './shape.js';

/** Fields a YAML/JSON request may carry besides name/method/url/headers/body/tls/variables. */
const ANNOTATION_FIELDS = ['protocol', 'streaming', 'filter', 'query', 'auth', 'operation', 'transport'] as const;
/** restcli's metadata (`documentation`, `$schema`) and its flags handled below. */
const RESTCLI_FIELDS = ['documentation', '$schema', 'parseEscapes', 'requiresConfirmation'] as const;
/** restcli's chaining and checks (run by `src/chain/`). */
const CHAIN_FIELDS = ['dependsOn', 'extract', 'expectedStatusCodes', 'expectedBody', 'expectedBodyExact', 'expectedBodyPattern', 'expectedBodyField', 'expectedBodyFields'] as const;
/** The fields of `tls`: every key of TlsSettings, and only those (the compiler holds the two together). */
const TLS_FIELDS: readonly string[] = Object.keys({ certFile: 1, keyFile: 1, caFile: 1, pfxFile: 1, passphrase: 1, insecureSkipVerify: 1 } satisfies Record<keyof TlsSettings, 1>);
const KNOWN = new Set<string>(['name', 'method', 'url', 'headers', 'body', 'tls', 'variables', 'annotations', 'httpVersion', ...ANNOTATION_FIELDS, ...RESTCLI_FIELDS, ...CHAIN_FIELDS]);

/** Other readings of the same document, each for the fields it is right for. */
export interface DocumentViews {
  /** Numbers a double cannot hold kept as written (`1.10`, `12345678901234567890`, `1e400`): for bodies and GraphQL variables. */
  exact?: unknown;
  /** Every scalar as its text (YAML): for header values, sent as written (`X-Version: 1.10`, `X-Zip: 0755`). Else `exact`'s. */
  written?: unknown;
  /** Whether a top-level YAML field defines an anchor (`common: &common`) for the requests to use. */
  definesAnchor?: (key: string) => boolean;
}

/**
 * Turns parsed YAML/JSON into request specs: one request, an array, or `{ "requests": [...] }`.
 * Each error names the file and the field.
 */
export function specsFromData(data: unknown, file: string, views: DocumentViews = {}): RequestSpec[] {
  const { exact = data, written = exact, definesAnchor } = views;
  const list = requestItems(data);
  // The same document with numbers a double cannot hold kept as written (JSON files): for bodies.
  const exactList = exact === data ? list : requestItems(exact);
  const writtenList = written === data ? list : requestItems(written);
  if (!list) throw new UsageError(`${file}: expected a request object, an array of requests or {"requests": [...]}`);
  // `requests: 5`: the list is what is wrong, not a field of a request.
  if (isObject(data) && 'requests' in data && !Array.isArray(data.requests)) throw new UsageError(`${file}: requests: expected a list of requests, got ${data.requests === null ? 'null' : typeof data.requests}`, { hint: 'requests: [ {url: …}, … ] — or write a single request at the top level' });
  // Beside `requests`, a field (`headers`, `baseUrl`) would apply to nothing: refused, not ignored.
  // A YAML field that defines an anchor (`common: &common`) is there to be used by the requests.
  if (isObject(data) && Array.isArray(data.requests)) {
    const other = Object.keys(data).find((key) => key !== 'requests' && key !== '$schema' && definesAnchor?.(key) !== true);
    if (other !== undefined) throw new UsageError(`${file}: ${other}: unknown field beside "requests"`, { hint: 'the top level holds only requests: [...]; give each request its own headers, or put shared values in a profile or an environment file' });
  }
  return list.map((item, index) => {
    const exactItem = exactList?.[index];
    const exact = exactItem !== item && isObject(exactItem) ? exactItem : undefined;
    const writtenItem = writtenList?.[index];
    const writtenHeaders = writtenItem !== item && isObject(writtenItem) && isObject(writtenItem.headers) ? writtenItem.headers : undefined;
    return specFromObject(item, file, list.length === 1 && !Array.isArray(data) && !(isObject(data) && 'requests' in data) ? '' : `requests[${index}]`, index + 1, exact, writtenHeaders);
  });
}

/** A header's lines as written: from the document's text reading where it has the same shape (a scalar, or a list as long). */
function headerLines(value: string | number | boolean | readonly (string | number | boolean)[], written: unknown): string[] {
  if (!Array.isArray(value)) return [String(typeof written === 'string' || isLosslessNumber(written) ? written : value)];
  const texts = Array.isArray(written) && written.length === value.length ? written : value;
  return value.map((line, i) => String(typeof texts[i] === 'string' || isLosslessNumber(texts[i]) ? texts[i] : line));
}

/**
 * `exact`: the same request with numbers a double cannot hold kept as written (a JSON file's), for
 * its body and GraphQL variables; `writtenHeaders`: its headers' values as written.
 */
function specFromObject(item: unknown, file: string, path: string, index: number, exact?: Record<string, unknown>, writtenHeaders?: Record<string, unknown>): RequestSpec {
  const exactBody = exact?.body;
  const where = (field?: string): string => `${file}: ${[path, field].filter(Boolean).join('.') || 'request'}`;
  if (!isObject(item)) throw new UsageError(`${where()}: expected an object`);
  for (const key of Object.keys(item)) {
    if (!KNOWN.has(key)) throw new UsageError(`${where(key)}: unknown field`, { hint: `known fields: ${[...KNOWN].join(', ')}` });
  }
  for (const flag of ['parseEscapes', 'requiresConfirmation'] as const) if (item[flag] !== undefined && typeof item[flag] !== 'boolean') throw new UsageError(`${where(flag)}: expected true or false`);
  if (typeof item.url !== 'string' || item.url === '') throw new UsageError(`${where('url')}: expected a URL string`);
  if (item.method !== undefined && (typeof item.method !== 'string' || !METHOD_TOKEN.test(item.method))) {
    throw new UsageError(`${where('method')}: expected an HTTP method such as GET or POST`);
  }
  const unsendable = typeof item.method === 'string' ? unsendableMethod(item.method) : undefined;
  if (unsendable) throw new UsageError(`${where('method')}: ${unsendable}`, { hint: `write ${(item.method as string).toUpperCase()} if the server means that method` });
  if (item.name !== undefined && typeof item.name !== 'string') throw new UsageError(`${where('name')}: expected a string`);
  const headers: RequestHeaders = {};
  if (item.headers !== undefined) {
    if (!isObject(item.headers)) throw new UsageError(`${where('headers')}: expected an object of "Name": "value"`);
    for (const [name, value] of Object.entries(item.headers)) {
      // Host as a list, or as Host and host: what a .http file refuses as two lines.
      const once = (Array.isArray(value) && value.length > 1) || hasHeader(headers, name) ? singleFieldRule(name) : undefined;
      if (once !== undefined) throw new UsageError(`${where(`headers.${name}`)}: more than one value: ${once}`);
      const unheld = unheldNameRule(name);
      if (unheld !== undefined) throw new UsageError(`${where(`headers.${name}`)}: ${unheld}`);
      // A list: the header sent on several lines, in order (as two lines of a .http file).
      if (!((Array.isArray(value) && value.length > 0 && value.every(scalar)) || scalar(value))) throw new UsageError(`${where(`headers.${name}`)}: expected a string, or a list of strings for a header sent on several lines`);
      // A number or true/false as written: `X-Version: 1.10` is not sent as 1.1, nor `X-Zip: 0755` as 755.
      const lines = headerLines(value, writtenHeaders?.[name]);
      // `X-A` and `x-a`: one header, every line of both sent (as a .http file sends them), none dropped.
      for (const line of lines) appendHeader(headers, name, line);
    }
  }
  // No prototype: `annotations: {__proto__: …}` is kept (and said to be unknown) like any other name, never dropped.
  const annotations: Record<string, string> = Object.create(null);
  if (item.annotations !== undefined) {
    if (!isObject(item.annotations)) throw new UsageError(`${where('annotations')}: expected an object`);
    for (const [key, value] of Object.entries(item.annotations)) annotations[key] = String(value);
  }
  for (const field of ANNOTATION_FIELDS) {
    const value = item[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'boolean') throw new UsageError(`${where(field)}: expected a string`);
    annotations[field] = String(value);
  }
  const method = (item.method as string | undefined) ?? 'GET';
  const spec: RequestSpec = {
    name: (item.name as string | undefined) ?? placeName(index),
    method: methodToSend(method),
    url: item.url,
    headers,
    annotations,
    source: { file, line: 1, locatedBy: 'name' },
  };
  if (item.method === undefined) spec.methodWritten = false;
  if (item.requiresConfirmation === true) annotations.confirmation = 'true';
  if (item.body !== undefined && item.body !== null) {
    if (typeof item.body === 'string') spec.body = item.parseEscapes === true ? parseEscapes(item.body) : item.body;
    else {
      // Its numbers as written: 12345678901234567890 is not sent as 12345678901234567000.
      const sent = exactBody !== undefined ? exactBody : item.body;
      refuseNonFinite(sent, where('body'));
      spec.body = exactBody !== undefined ? (stringifyJsonValue(exactBody, 2) as string) : JSON.stringify(item.body, null, 2);
      if (!hasHeader(headers, 'content-type') && annotations.protocol !== 'graphql') setHeader(headers, 'Content-Type', 'application/json');
    }
  }
  if (item.variables !== undefined) {
    if (!isObject(item.variables)) throw new UsageError(`${where('variables')}: expected an object of GraphQL variables`);
    // Their numbers as written too: `"id": 12345678901234567890` is not sent as …000.
    spec.graphqlVariables = isObject(exact?.variables) ? exact.variables : item.variables;
    refuseNonFinite(spec.graphqlVariables, where('variables'));
  }
  // As for the request's own fields: a typo (`caFlie`, `__proto__`) would leave the setting unset and the request sent without it, unsaid.
  const unknownTls = isObject(item.tls) ? Object.keys(item.tls).find((key) => !TLS_FIELDS.includes(key)) : undefined;
  if (unknownTls !== undefined) throw new UsageError(`${where(`tls.${unknownTls}`)}: unknown field`, { hint: `known fields: ${TLS_FIELDS.join(', ')}` });
  const tls = validateTls(item.tls, where('tls'));
  if (tls) spec.tls = tls;
  if (item.httpVersion !== undefined) {
    // `httpVersion: 2` (or "2", "2.0", "1.1"): what a request line's HTTP/2 says in an .http file.
    const version = String(item.httpVersion);
    if (!/^(2(\.0)?|1\.1)$/.test(version)) throw new UsageError(`${where('httpVersion')}: expected "1.1" or "2"`);
    spec.httpVersion = version.startsWith('2') ? '2' : '1.1';
  }
  const chain = chainFields(item, where, spec.annotations);
  if (chain) spec.chain = chain;
  return spec;
}

const scalar = (value: unknown): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** YAML's `.inf` and `.nan` have no JSON form (JSON.stringify would send `null`): refused, naming the field. */
function refuseNonFinite(value: unknown, where: string): void {
  const at = nonFinitePath(value);
  if (at !== undefined) throw new UsageError(`${where}${at.path}: ${at.value} has no JSON form`, { hint: 'write the number out (1e308) or as a string ("Infinity")' });
}

/**
 * restcli's `extract: {name: jmespath}`, `dependsOn: file | [files]` and expectations
 * (`expectedStatusCodes: [200, "2xx"]`, `expectedBody`, `expectedBodyExact`, `expectedBodyPattern`,
 * `expectedBodyFields: {path: value}`). Expectations become annotations, as `# @expected…` lines do.
 */
function chainFields(item: Record<string, unknown>, where: (field?: string) => string, annotations: Record<string, string>): ChainSpec | undefined {
  const chain: ChainSpec = {};
  if (item.extract !== undefined) {
    if (!isObject(item.extract)) throw new UsageError(`${where('extract')}: expected an object of name: JMESPath expression`);
    for (const [name, expression] of Object.entries(item.extract)) {
      if (typeof expression !== 'string' || expression === '') throw new UsageError(`${where(`extract.${name}`)}: expected a JMESPath expression`);
      (chain.captures ??= []).push({ name, expression, line: 1, syntax: 'jmespath' });
    }
  }
  if (item.dependsOn !== undefined) {
    const list = Array.isArray(item.dependsOn) ? item.dependsOn : [item.dependsOn];
    for (const path of list) {
      if (typeof path !== 'string' || path === '') throw new UsageError(`${where('dependsOn')}: expected a request file path or a list of them`);
      (chain.depends ??= []).push({ path, line: 1 });
    }
  }
  if (item.expectedStatusCodes !== undefined) {
    const codes = Array.isArray(item.expectedStatusCodes) ? item.expectedStatusCodes : [item.expectedStatusCodes];
    if (!codes.every(scalar)) throw new UsageError(`${where('expectedStatusCodes')}: expected status codes such as [200, "2xx"]`);
    annotations.expectedStatusCodes = codes.join(',');
  }
  for (const field of ['expectedBody', 'expectedBodyExact', 'expectedBodyPattern'] as const) {
    const value = item[field];
    if (value === undefined) continue;
    if (!scalar(value)) throw new UsageError(`${where(field)}: expected a string`);
    annotations[field] = String(value);
  }
  const fields = item.expectedBodyFields ?? item.expectedBodyField;
  if (fields !== undefined) {
    if (!isObject(fields)) throw new UsageError(`${where('expectedBodyFields')}: expected an object of path: value`);
    for (const [path, value] of Object.entries(fields)) annotations[`expectedBodyField.${path}`] = `${path} ${typeof value === 'string' ? value : JSON.stringify(value)}`;
  }
  return Object.keys(chain).length > 0 ? chain : undefined;
}
