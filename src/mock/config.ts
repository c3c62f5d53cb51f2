/**
 * A mock file (restcli's `.mock.yaml` format, plus templating and SSE: docs/mock.md), read and
 * validated once, where it enters: everything after this works on {@link MockConfig}, and every
 * error names the file and the field (`routes[3].pathType`).
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import type { Schema } from 'js-yaml';
import { dirname, resolve } from 'node:path';
import { parseDuration } from '../core/duration.js';
import { codePointName } from '../core/code-point.js';
import { UsageError } from '../core/errors/index.js';
import { NOT_IN_HEADER_VALUE } from '../core/headers.js';
import { notAFile } from '../core/not-a-file.js';
import { real } from '../core/project.js';
import { readAtMost } from '../core/read-bounded.js';
import { importLimitWords } from '../import/source.js';
import { expansionPastLimit } from '../plugins/format-yaml/alias-expansion.js';
import { readingsAsWritten, type WrittenReadings } from '../plugins/format-yaml/as-written.js';
import { requestSchema } from '../plugins/format-yaml/request-schema.js';
import { bodyFileInside } from './body-file.js';
import { compileRoutePattern, type RoutePattern } from './route-pattern.js';

export type PathType = 'exact' | 'prefix' | 'regex';
const PATH_TYPES: readonly PathType[] = ['exact', 'prefix', 'regex'];

export interface SseEvent {
  event?: string;
  /** Text, or any YAML value (sent as JSON). */
  data: unknown;
  id?: string;
}

export interface SseSpec {
  events: SseEvent[];
  intervalMs: number;
  /** How many times the list is sent: the stream always ends. */
  repeat: number;
}

export interface MockRoute {
  name?: string;
  /** Upper case; `*` matches every method. */
  method: string;
  path: string;
  pathType: PathType;
  /** The regex of a `regex` route, anchored to the whole path (compiled here, so a bad one is a load error). */
  pattern?: RoutePattern;
  status: number;
  headers: Record<string, string>;
  /** A string is sent as text; any other YAML value as JSON. */
  body?: unknown;
  /** Absolute path, read at each request (an edit shows without a reload). */
  bodyFile?: string;
  delayMs: number;
  sse?: SseSpec;
}

export interface MockConfig {
  /** The file the routes came from (as given), for messages. */
  file: string;
  /** Its folder, links resolved: every `bodyFile` must be there or below. */
  folder: string;
  port: number;
  host: string;
  logging: boolean;
  routes: MockRoute[];
}

/** Loopback only unless the file or --host says otherwise. */
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 8080;
/** Node's timers hold at most 2^31 - 1 ms. */
const MAX_MS = 2 ** 31 - 1;
const MAX_SSE_SENDS = 100_000;
const TOP_KEYS = new Set(['port', 'host', 'logging', 'routes', 'name', 'description']);
const ROUTE_KEYS = new Set(['name', 'description', 'method', 'path', 'pathType', 'status', 'headers', 'body', 'bodyFile', 'delay', 'sse']);

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The field checks of one file: each failure is `FILE: FIELD …`, exit 2. */
class Checker {
  constructor(private readonly file: string) {}

  fail(field: string, what: string): never {
    throw new UsageError(`${this.file}: ${field} ${what}`, { hint: 'the mock file format: docs/mock.md' });
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string' || value === '') this.fail(field, `must be a non-empty string${value === undefined ? ' (it is missing)' : ''}`);
    return value;
  }

  optionalString(value: unknown, field: string): string | undefined {
    return value === undefined ? undefined : this.string(typeof value === 'number' ? String(value) : value, field);
  }

  integer(value: unknown, field: string, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) this.fail(field, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return value;
  }

  boolean(value: unknown, field: string): boolean {
    if (typeof value !== 'boolean') this.fail(field, `must be true or false, got ${JSON.stringify(value)}`);
    return value;
  }

  /** `250`, `"250ms"`, `"1.5s"`, `"2m"` → milliseconds. */
  duration(value: unknown, field: string): number {
    const ms = typeof value === 'number' ? Math.round(value) : typeof value === 'string' ? parseDuration(value) : undefined;
    if (ms === undefined) this.fail(field, `must be milliseconds or a duration such as "250ms", "1s", got ${JSON.stringify(value)}`);
    if (!(ms >= 0 && ms <= MAX_MS)) this.fail(field, `must be from 0 to ${MAX_MS} ms`);
    return ms;
  }

  /** `written`: the same headers with every scalar as its text (`1.10`, `0755`), sent so. */
  headers(value: unknown, field: string, written: Obj | undefined): Record<string, string> {
    if (value === undefined) return {};
    if (!isObject(value)) this.fail(field, 'must be a map of header names to values');
    const headers: Record<string, string> = {};
    for (const [name, v] of Object.entries(value)) {
      if (!/^[!#$%&'*+.^`|~\w-]+$/.test(name)) this.fail(`${field}.${name}`, 'is not a valid header name');
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') this.fail(`${field}.${name}`, 'must be a string, number or boolean');
      // A line break would end the header (every answer of the route a 500): refused here, at load.
      const bad = NOT_IN_HEADER_VALUE.exec(String(v))?.[0];
      if (bad !== undefined) this.fail(`${field}.${name}`, `holds a character a header cannot carry (${codePointName(bad)})`);
      const text = written?.[name];
      headers[name] = typeof text === 'string' ? text : String(v);
    }
    return headers;
  }
}

/** `exact`: the same `sse` with numbers as written, whose events' data is sent. */
function sseSpec(value: unknown, field: string, check: Checker, exact: unknown): SseSpec {
  if (!isObject(value)) check.fail(field, 'must be a map with events (and interval, repeat)');
  if (!Array.isArray(value.events) || value.events.length === 0) check.fail(`${field}.events`, 'must be a non-empty list');
  const exactEvents = isObject(exact) && Array.isArray(exact.events) ? exact.events : [];
  const events = value.events.map((event: unknown, i): SseEvent => {
    const at = `${field}.events[${i}]`;
    if (!isObject(event)) check.fail(at, 'must be a map with data (and event, id)');
    if (event.data === undefined) check.fail(`${at}.data`, 'is missing');
    const name = check.optionalString(event.event, `${at}.event`);
    const id = check.optionalString(event.id, `${at}.id`);
    const exactEvent: unknown = exactEvents[i];
    return { data: isObject(exactEvent) ? exactEvent.data : event.data, ...(name !== undefined ? { event: name } : {}), ...(id !== undefined ? { id } : {}) };
  });
  const repeat = value.repeat === undefined ? 1 : check.integer(value.repeat, `${field}.repeat`, 1, Math.floor(MAX_SSE_SENDS / events.length));
  return { events, intervalMs: value.interval === undefined ? 1000 : check.duration(value.interval, `${field}.interval`), repeat };
}

/** One route, checked on the request schema's reading (`value`); its body and headers served from `asWritten`'s. */
function route(value: unknown, index: number, baseDir: string, folder: string, check: Checker, asWritten: { exact: unknown; written: unknown }): MockRoute {
  const field = `routes[${index}]`;
  if (!isObject(value)) check.fail(field, 'must be a map (method, path, status, …)');
  const exact = isObject(asWritten.exact) ? asWritten.exact : value;
  const writtenHeaders = isObject(asWritten.written) && isObject(asWritten.written.headers) ? asWritten.written.headers : undefined;
  const unknown = Object.keys(value).find((key) => !ROUTE_KEYS.has(key));
  if (unknown !== undefined) check.fail(`${field}.${unknown}`, `is not a route field (known: ${[...ROUTE_KEYS].join(', ')})`);
  const method = check.string(value.method, `${field}.method`).toUpperCase();
  if (method !== '*' && !/^[A-Z]+$/.test(method)) check.fail(`${field}.method`, `must be an HTTP method or *, got ${JSON.stringify(value.method)}`);
  const path = check.string(value.path, `${field}.path`);
  const pathType = (value.pathType ?? 'exact') as PathType;
  if (!PATH_TYPES.includes(pathType)) check.fail(`${field}.pathType`, `must be exact, prefix or regex, got ${JSON.stringify(value.pathType)}`);
  let pattern: RoutePattern | undefined;
  if (pathType === 'regex') {
    try {
      pattern = compileRoutePattern(path); // the whole path: `/items/[0-9]+` must not match `/items/1/x`
    } catch (error) {
      check.fail(`${field}.path`, `is not a valid regex (RE2 syntax, as restcli's): ${(error as Error).message}`);
    }
  } else if (!path.startsWith('/')) check.fail(`${field}.path`, `must start with / (got ${JSON.stringify(path)})`);
  if (value.body !== undefined && value.bodyFile !== undefined) check.fail(field, 'has both body and bodyFile: keep one');
  // A 204 or 304 has no body (RFC 9110): one written would never be sent.
  if ((value.status === 204 || value.status === 304) && (value.body !== undefined || value.bodyFile !== undefined || value.sse !== undefined)) check.fail(field, `has status ${value.status}, which has no body: remove ${value.body !== undefined ? 'body' : value.bodyFile !== undefined ? 'bodyFile' : 'sse'}`);
  if ((value.body !== undefined || value.bodyFile !== undefined) && value.sse !== undefined) check.fail(`${field}.sse`, 'cannot go with body or bodyFile');
  let bodyFile: string | undefined;
  if (value.bodyFile !== undefined) {
    bodyFile = resolve(baseDir, check.string(value.bodyFile, `${field}.bodyFile`));
    if (!existsSync(bodyFile)) check.fail(`${field}.bodyFile`, `names a file that does not exist: ${bodyFile}`);
    const stat = statSync(bodyFile);
    const kind = notAFile(bodyFile) ?? (stat.isDirectory() ? 'a folder' : undefined);
    if (kind) check.fail(`${field}.bodyFile`, `names ${kind}, not a file: ${bodyFile}`);
    // A mock file from a repository must not serve what lies beside it (`../../.ssh/id_rsa`).
    if (bodyFileInside(folder, bodyFile) === undefined) check.fail(`${field}.bodyFile`, `leads outside the mock file's folder (${folder}): ${bodyFile}`);
  }
  const name = check.optionalString(value.name, `${field}.name`);
  return {
    method,
    path,
    pathType,
    status: value.status === undefined ? 200 : check.integer(value.status, `${field}.status`, 100, 599),
    headers: check.headers(value.headers, `${field}.headers`, writtenHeaders),
    delayMs: value.delay === undefined ? 0 : check.duration(value.delay, `${field}.delay`),
    ...(name !== undefined ? { name } : {}),
    ...(pattern ? { pattern } : {}),
    ...(value.body !== undefined ? { body: exact.body } : {}),
    ...(bodyFile !== undefined ? { bodyFile } : {}),
    ...(value.sse !== undefined ? { sse: sseSpec(value.sse, `${field}.sse`, check, exact.sse) } : {}),
  };
}

/**
 * A parsed mock document (YAML or JSON) to a config; `file` is for messages and bodyFile paths.
 * `readings`: the same document's bodies and headers as written (a YAML file's, as-written.ts).
 */
export function toMockConfig(document: unknown, file: string, readings?: WrittenReadings): MockConfig {
  const check: Checker = new Checker(file); // annotated, so its `never` checks narrow
  if (!isObject(document)) check.fail('the file', 'must be a YAML or JSON map with routes');
  // A misspelt `port` or `logging` must not go unnoticed, as a misspelt route field does not.
  const unknown = Object.keys(document).find((key) => !TOP_KEYS.has(key));
  if (unknown !== undefined) check.fail(unknown, `is not a mock file field (known: ${[...TOP_KEYS].join(', ')})`);
  if (!Array.isArray(document.routes)) check.fail('routes', 'must be a list of routes');
  const baseDir = dirname(resolve(file));
  const folder = real(baseDir);
  return {
    file,
    folder,
    port: document.port === undefined ? DEFAULT_PORT : check.integer(document.port, 'port', 0, 65535),
    host: document.host === undefined ? DEFAULT_HOST : check.string(document.host, 'host'),
    logging: document.logging === undefined ? false : check.boolean(document.logging, 'logging'),
    routes: document.routes.map((value: unknown, index) => route(value, index, baseDir, folder, check, { exact: routesOf(readings?.exact)?.[index], written: routesOf(readings?.written)?.[index] })),
  };
}

/** The routes of a reading of the file. */
const routesOf = (reading: unknown): unknown[] | undefined => (isObject(reading) && Array.isArray(reading.routes) ? reading.routes : undefined);

/** Whether some route's header value reads as a number or true/false: its text as written is then read too. */
const holdsTypedHeader = (document: unknown): boolean => (routesOf(document) ?? []).some((route) => isObject(route) && isObject(route.headers) && Object.values(route.headers).some((value) => typeof value === 'number' || typeof value === 'boolean'));

/**
 * Reads and validates a mock file (`.mock.yaml`, `.mock.yml`, `.mock.json`) of at most `maxBytes`
 * (`--max-size`): a file's size checked before a byte is read, a pipe's as it arrives.
 */
export async function loadMockConfig(file: string, maxBytes: number): Promise<MockConfig> {
  const kind = notAFile(file, { pipe: true }); // named on the command line
  if (kind) throw new UsageError(`${file}: cannot read the mock file: it is ${kind}, not a file`);
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    text = readAtMost(fd, maxBytes, (past) => {
      const { why, hint } = importLimitWords(past, maxBytes, 'mock');
      return new UsageError(`${file}: ${why}`, { hint });
    }).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: cannot read the mock file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const yaml = await import('js-yaml');
  const read = (schema: Schema): unknown => {
    try {
      return yaml.load(text, { schema }); // JSON is YAML too
    } catch (error) {
      throw new UsageError(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  // As a request file is read (request-schema.ts): a date is the text written, not a timestamp; no custom tags.
  const document = read(requestSchema(yaml));
  // Aliases inside aliases grow exponentially (the "billion laughs"): a few hundred bytes rendered for a minute, blocking every client.
  const past = expansionPastLimit(document);
  if (past !== undefined) throw new UsageError(`${file}: its aliases (*name) expand to more than ${past}`, { hint: 'a file that repeats anchors inside anchors grows exponentially: write the values out' });
  // Served as written, as a request file sends: a body's `1.10` and 64-bit ids, a header's `1.10` or `0755`.
  return toMockConfig(document, file, await readingsAsWritten(yaml, text, document, read, holdsTypedHeader(document)));
}
