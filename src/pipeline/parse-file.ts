import { extname, resolve } from 'node:path';
import { NoRequestsError, UsageError } from '../core/errors/index.js';
import type { ChainSpec, RequestSpec } from '../core/model.js';
import type { PluginRegistry } from '../core/registry.js';
import type { ParseContext } from './context.js';
import { callHandler } from './call-handler.js';
import { readRequestFile } from './read-request-source.js';
import { carriesFilter, mayRefer, requestsOf, type RequestFile } from './request-file.js';
import { NameTable } from './name-table.js';
import { FORMAT_BY_EXTENSION } from './request-formats.js';
import { unsendableUrl } from './unsendable-urls.js';
import type { ImportWalk } from './imported-variables.js';


/** Where a request file's text comes from, and how to read it. */
export interface RequestText {
  /** The name shown in messages and reports (`api.http`, `<stdin>`). */
  file: string;
  /** Absolute path: `# @import` and other relative paths resolve from its folder. */
  path: string;
  /** `--format`: the format to parse with, whatever the name's extension says. */
  format?: string;
}

/**
 * The `parse` stage: reads a request file and parses it with the format plugin of its extension
 * (unknown ones: HTTP text). `warn` hears of annotations that no plugin reads.
 */
export async function parseRequestFile(file: string, registry: PluginRegistry, warn?: (message: string) => void, walk: ImportWalk = newWalk(), format?: string): Promise<RequestSpec[]> {
  const path = resolve(file);
  return parseRequestBytes(await readRequestFile(file, path), { file, path, ...(format !== undefined ? { format } : {}) }, registry, warn, walk);
}

/** `--format yaml`: a format reqflow or a plugin reads, else exit 2 naming them. */
function formatOf(format: string, registry: PluginRegistry): string {
  const name = format.toLowerCase();
  if (FORMAT_BY_EXTENSION[name] !== undefined || registry.claimsExtension(name)) return name;
  throw new UsageError(`--format must be http, yaml or json, got "${format.slice(0, 40)}"`, { hint: 'a format plugin may add its own (docs/plugins.md)' });
}

/** Parses the bytes of a request file (read by the caller: a file, a pipe, stdin) with the format plugin of its format. */
async function parseRequestBytes(bytes: Buffer, source: RequestText, registry: PluginRegistry, warn: ((message: string) => void) | undefined, walk: ImportWalk): Promise<RequestSpec[]> {
  return [...requestsOf(await readRequests(bytes, source, registry, warn, walk, true))];
}

/**
 * A run's request file (`reqflow run`, `reqflow test`): every request is parsed and checked
 * now; a long `.http` file's are built again when their turn comes rather than kept (KEEP_PARSED_BYTES).
 */
export async function loadRequestFile(file: string, registry: PluginRegistry, warn?: (message: string) => void, format?: string): Promise<RequestFile> {
  const path = resolve(file);
  return loadRequestBytes(await readRequestFile(file, path, { pipe: true }), { file, path, ...(format !== undefined ? { format } : {}) }, registry, warn);
}

/** A request file this long (about 5,000 short requests) sizes the heap for a long run (long-run-heap.ts). */
const LONG_FILE_BYTES = 256 * 1024;

/**
 * A request file up to this long (about 1,500 short requests) keeps its parsed requests: building
 * each again on its turn was the largest per-request cost of ours (issue 23), and what such a file
 * holds is bounded (at most ~0.6 MB measured, docs/performance.md). A longer one keeps names and places only.
 */
const KEEP_PARSED_BYTES = 64 * 1024;

/** httpyac's `# @ratelimit`, `# @noProxy`, `# @keepStreaming`: values checked by annotation-checks.ts (loaded for such a file). */
const HTTPYAC_CHECKED = ['ratelimit', 'no-proxy', 'keep-streaming'];

/** The same from bytes the caller read (stdin, a pipe). */
export async function loadRequestBytes(bytes: Buffer, source: RequestText, registry: PluginRegistry, warn?: (message: string) => void): Promise<RequestFile> {
  // Thousands of requests: a run whose memory is mostly garbage, and the heap sized for it. Not
  // for an everyday file: V8 flags set at run time make every built-in loaded later (https,
  // zlib, crypto) compile from source, ~15 ms measured, more than a short run can win back.
  if (bytes.length > LONG_FILE_BYTES) (await import('./long-run-heap.js')).keepHeapSmall();
  return readRequests(bytes, source, registry, warn, newWalk(), bytes.length <= KEEP_PARSED_BYTES, true);
}

/** `sending`: the file is read to be run (`run`, `test`): the requests whose URL, written whole, cannot be sent are noted (`unsendable`). */
/** A parse that imports nothing yet. */
const newWalk = (): ImportWalk => ({ importing: new Set(), scopes: new Map() });

async function readRequests(bytes: Buffer, source: RequestText, registry: PluginRegistry, warn: ((message: string) => void) | undefined, walk: ImportWalk, keep: boolean, sending = false): Promise<RequestFile> {
  const { file, path } = source;
  const text = await decodeRequestFile(bytes, file);
  const raw = extname(path).slice(1).toLowerCase();
  const extension = source.format !== undefined ? formatOf(source.format, registry) : FORMAT_BY_EXTENSION[raw] || registry.claimsExtension(raw) ? raw : 'http';
  // What is learnt of each request as it is parsed: the request itself is not kept (unless `keep`).
  const names = new NameTable(); // compact: a 100,000-request file keeps every name
  const filtered: number[] = [];
  const linked: number[] = [];
  const imports = new Map<number, NonNullable<ChainSpec['imports']>>();
  const unknown = new Map<string, RequestSpec>();
  const badValues = new Map<string, RequestSpec>();
  // httpyac's annotations whose values are checked before anything is sent: the first request of each kind.
  const httpyacValues = new Map<string, RequestSpec>();
  const unsendable: number[] = [];
  // An installed plugin that sends may speak other schemes (`mqtt://`): its requests are its to check.
  const checkUrls = sending && !registry.entries.some((entry) => !entry.builtin && entry.stages.includes('send'));
  const checkedValues = Object.keys(ANNOTATION_VALUES).filter((name) => !registry.entries.some((entry) => !entry.builtin && entry.annotations?.includes(name) === true));
  const visit = (spec: RequestSpec): void => {
    spec.source.index = names.count;
    if (carriesFilter(spec)) filtered.push(names.count);
    if (mayRefer(spec)) linked.push(names.count);
    if (spec.chain?.imports) imports.set(names.count, spec.chain.imports);
    names.add(spec.name);
    for (const name of checkedValues) if (!badValues.has(name) && !allowedValue(name, spec.annotations[name])) badValues.set(name, spec);
    for (const name of HTTPYAC_CHECKED) {
      const { [name]: value, streaming, protocol } = spec.annotations;
      const kind = `${name} ${value} ${streaming} ${protocol}`;
      if (value !== undefined && !httpyacValues.has(kind)) httpyacValues.set(kind, spec);
    }
    if (checkUrls && unsendableUrl(spec) !== undefined) unsendable.push(spec.source.index as number);
    if (warn) for (const name of Object.keys(spec.annotations)) if (!unknown.has(name) && !registry.knowsAnnotation(name)) unknown.set(name, spec);
  };
  const ctx: ParseContext = { file, text, extension, requests: [], ...(keep ? {} : { visit }), ...(warn ? { warn } : {}) };
  for (const entry of registry.parsersFor(extension)) {
    const plugin = await registry.load(entry);
    const handler = plugin.stages.parse;
    if (!handler) continue;
    await callHandler(entry, 'parse', handler, ctx);
    if (ctx.requests.length > 0 || names.count > 0) break;
  }
  // A parser that builds requests again has handed them to `visit`; the others listed them.
  const kept = ctx.requests;
  kept.forEach(visit);
  if (names.count === 0) throw new NoRequestsError(file);
  // What only some files need loads only for them: a bad or unknown annotation, an `# @import`.
  for (const name of checkedValues) {
    const bad = badValues.get(name);
    if (bad) throw (await import('./annotation-checks.js')).badValueError(name, bad, ANNOTATION_VALUES[name] as readonly string[]);
  }
  if (httpyacValues.size > 0) (await import('./annotation-checks.js')).checkHttpyacValues(httpyacValues.values());
  if (warn && unknown.size > 0) (await import('./annotation-checks.js')).warnUnknownAnnotations(unknown, registry, warn);
  const build = (index: number): RequestSpec => {
    if (kept.length > 0) return kept[index] as RequestSpec;
    const spec = (ctx.reparse as (index: number) => RequestSpec)(index);
    spec.source.index = index;
    return withImports(spec);
  };
  const load = (target: string, within: ImportWalk): Promise<RequestSpec[]> => parseRequestFile(target, registry, undefined, within);
  const imported = imports.size > 0 ? await (await import('./imported-variables.js')).importedVariables(imports, { file, path }, { importing: new Set([...walk.importing, path]), scopes: walk.scopes }, load) : new Map<number, never[]>();
  const withImports = (spec: RequestSpec): RequestSpec => {
    const taken = imported.get(spec.source.index as number) ?? [];
    for (const { variables } of taken) spec.fileVariables = { ...variables, ...spec.fileVariables };
    // The imported files' global scripts run before the request's own, as httpyac runs them at the import.
    const scripts = taken.flatMap(({ scripts }) => scripts);
    if (scripts.length > 0) spec.chain = { ...spec.chain, scripts: [...scripts, ...(spec.chain?.scripts ?? [])] };
    return spec;
  };
  kept.forEach(withImports);
  return { count: names.count, name: (index) => names.get(index), indexOf: (name) => names.indexOf(name), spec: build, filtered, linked, unsendable };
}

/** The values reqflow's own annotations take: anything else would be ignored, and the request sent as something it is not. */
const ANNOTATION_VALUES: Record<string, readonly string[]> = { streaming: ['true', 'false'], protocol: ['graphql', 'websocket'] };

const allowedValue = (name: string, value: string | undefined): boolean => value === undefined || (ANNOTATION_VALUES[name] as readonly string[]).includes(value.trim().toLowerCase());

/**
 * Request files are UTF-8: the usual file, ASCII or UTF-8 with no NUL byte nor byte-order mark,
 * is decoded here; the others (UTF-16, binary, bad bytes) by `decode-request-file.ts`, loaded then.
 */
async function decodeRequestFile(bytes: Buffer, file: string): Promise<string> {
  if (bytes[0] !== 0xff && bytes[0] !== 0xfe && !bytes.includes(0)) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // said below, with the position of the first bad byte
    }
  }
  return (await import('./decode-request-file.js')).decodeRequestFile(bytes, file);
}
