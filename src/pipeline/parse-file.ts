import { extname, resolve } from 'node:path';
import { ParseError, UsageError } from '../core/errors/index.js';
import { requestFilter, validateFilter } from '../core/filter.js';
import type { RequestSpec, RunOptions } from '../core/model.js';
import { closestName } from '../core/suggest.js';
import type { PluginRegistry } from '../core/registry.js';
import type { ParseContext } from './context.js';
import { callHandler } from './call-handler.js';
import { readRequestFile } from './read-request-source.js';

const FORMAT_BY_EXTENSION: Record<string, string> = { http: 'http', rest: 'http', yaml: 'yaml', yml: 'yaml', json: 'json' };

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
export async function parseRequestFile(file: string, registry: PluginRegistry, warn?: (message: string) => void, importing: ReadonlySet<string> = new Set(), format?: string): Promise<RequestSpec[]> {
  const path = resolve(file);
  return parseRequestBytes(await readRequestFile(file, path), { file, path, ...(format !== undefined ? { format } : {}) }, registry, warn, importing);
}

/** `--format yaml`: a format reqflow or a plugin reads, else exit 2 naming them. */
function formatOf(format: string, registry: PluginRegistry): string {
  const name = format.toLowerCase();
  if (FORMAT_BY_EXTENSION[name] !== undefined || registry.claimsExtension(name)) return name;
  throw new UsageError(`--format must be http, yaml or json, got "${format.slice(0, 40)}"`, { hint: 'a format plugin may add its own (docs/plugins.md)' });
}

/** Parses the bytes of a request file (read by the caller: a file, a pipe, stdin) with the format plugin of its format. */
export async function parseRequestBytes(bytes: Buffer, source: RequestText, registry: PluginRegistry, warn?: (message: string) => void, importing: ReadonlySet<string> = new Set()): Promise<RequestSpec[]> {
  const { file, path } = source;
  const text = decodeRequestFile(bytes, file);
  const raw = extname(path).slice(1).toLowerCase();
  const extension = source.format !== undefined ? formatOf(source.format, registry) : FORMAT_BY_EXTENSION[raw] || registry.claimsExtension(raw) ? raw : 'http';
  const ctx: ParseContext = { file, text, extension, requests: [] };
  for (const entry of registry.parsersFor(extension)) {
    const plugin = await registry.load(entry);
    const handler = plugin.stages.parse;
    if (!handler) continue;
    await callHandler(entry, 'parse', handler, ctx);
    if (ctx.requests.length > 0) break;
  }
  if (ctx.requests.length === 0) throw new UsageError(`${file}: no requests found`, { hint: 'write at least one request line, e.g. GET https://example.com' });
  ctx.requests.forEach((spec, index) => {
    spec.source.index = index;
  });
  checkAnnotationValues(ctx.requests, registry);
  if (warn) warnUnknownAnnotations(ctx.requests, registry, warn);
  await withImportedVariables(ctx.requests, path, registry, new Set([...importing, path]));
  return ctx.requests;
}

/**
 * httpyac's `# @import ./auth.http`: the file variables of the imported file (as they stand at
 * its end) are the request's too, under its own. A file importing itself, directly or through
 * others, adds nothing. (Its named requests become known when the request runs: src/chain/.)
 */
async function withImportedVariables(specs: RequestSpec[], path: string, registry: PluginRegistry, importing: ReadonlySet<string>): Promise<void> {
  const imported = new Map<string, Readonly<Record<string, string>>>();
  for (const spec of specs) {
    for (const { path: relative, line } of spec.chain?.imports ?? []) {
      const target = resolve(path, '..', relative);
      if (importing.has(target)) continue;
      let variables = imported.get(target);
      if (!variables) {
        const own = await parseRequestFile(target, registry, undefined, importing).catch((error: unknown) => {
          throw error instanceof UsageError && !(error instanceof ParseError) ? new UsageError(`${spec.source.file}:${line}: # @import ${relative}: ${error.message}`) : error;
        });
        variables = own.at(-1)?.fileVariables ?? {};
        imported.set(target, variables);
      }
      spec.fileVariables = { ...variables, ...spec.fileVariables };
    }
  }
}

/** The values reqflow's own annotations take: anything else would be ignored, and the request sent as something it is not. */
const ANNOTATION_VALUES: Record<string, readonly string[]> = { streaming: ['true', 'false'], protocol: ['graphql', 'websocket'] };

/**
 * `# @streaming maybe` or `# @protocol grpc` is exit 2 naming the request and its line, before
 * anything is sent — unless a third-party plugin reads that annotation (it may add a protocol).
 */
function checkAnnotationValues(specs: readonly RequestSpec[], registry: PluginRegistry): void {
  for (const [name, allowed] of Object.entries(ANNOTATION_VALUES)) {
    if (registry.entries.some((entry) => !entry.builtin && entry.annotations?.includes(name) === true)) continue;
    for (const spec of specs) {
      const value = spec.annotations[name];
      if (value === undefined || allowed.includes(value.trim().toLowerCase())) continue;
      throw new UsageError(`# @${name} of request "${spec.name}" (${spec.source.file}:${spec.source.line}) expects ${allowed.join(' or ')}, got ${JSON.stringify(value.slice(0, 40))}`, {
        hint: name === 'protocol' ? 'plain HTTP needs no @protocol; other protocols come from plugins (docs/plugins.md)' : 'write # @streaming (or true) for server-sent events, or leave it out',
      });
    }
  }
}

/** One warning per unknown annotation name in a file, naming the known one meant where one is close (`# @filer` → `@filter`). */
function warnUnknownAnnotations(specs: readonly RequestSpec[], registry: PluginRegistry, warn: (message: string) => void): void {
  const unknown = new Map<string, RequestSpec>();
  for (const spec of specs) for (const name of Object.keys(spec.annotations)) if (!unknown.has(name) && !registry.knowsAnnotation(name)) unknown.set(name, spec);
  if (unknown.size === 0) return;
  const known = registry.annotationNames();
  for (const [name, spec] of unknown) {
    const guess = closestName(name, known);
    warn(`unknown annotation "@${name}" in request "${spec.name}" (${spec.source.file}:${spec.source.line}) is ignored${guess ? `; did you mean "@${guess}"?` : ''}`);
  }
}

/**
 * Request files are UTF-8. Anything else is refused with the position of the first bad byte,
 * rather than sent with U+FFFD in place of the user's characters.
 */
function decodeRequestFile(bytes: Buffer, file: string): string {
  // A byte-order mark names the encoding: editors on Windows save UTF-16 with one.
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  // ASCII in UTF-16 is valid UTF-8 full of NULs: name the encoding rather than "binary".
  if (!utf16 && looksLikeUtf16(bytes)) throw new ParseError(file, 1, 1, 'not UTF-8 text: it looks like UTF-16 without a byte-order mark', { hint: 'save it as UTF-8 (or as UTF-16 with a byte-order mark), e.g. iconv -f utf-16le -t utf-8 FILE' });
  try {
    return new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (utf16) throw new ParseError(file, 1, 1, `not valid ${utf16.toUpperCase()} text (its byte-order mark says ${utf16.toUpperCase()})`, { hint: 'save it as UTF-8' });
    const lossy = bytes.toString('utf8');
    const at = Math.max(lossy.indexOf('\uFFFD'), 0);
    const before = lossy.slice(0, at);
    const line = before.split('\n').length;
    const binary = bytes.includes(0);
    throw new ParseError(file, line, at - before.lastIndexOf('\n'), binary ? 'not a text file (it contains NUL bytes)' : 'not valid UTF-8 text', {
      hint: binary ? 'is this the right file? request files are UTF-8 text' : 'request files are UTF-8 text; convert it, e.g. iconv -f latin1 -t utf-8 FILE',
    });
  }
}

/** ASCII text in UTF-16 has a NUL in every other byte: mostly at odd offsets (LE) or even ones (BE). */
function looksLikeUtf16(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 512);
  if (sample.length < 4) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 === 0 ? even++ : odd++;
  return Math.max(even, odd) >= sample.length / 2 * 0.7 && Math.min(even, odd) === 0;
}

/** `-n NAME` (repeatable) picks requests; an unknown name is exit 2 listing the names. */
export function selectRequests(specs: RequestSpec[], names: readonly string[]): RequestSpec[] {
  if (names.length === 0) return specs;
  for (const name of names) {
    if (!specs.some((spec) => spec.name === name)) {
      throw new UsageError(`no request named "${name}"`, { hint: `requests in this file: ${specs.map((s) => s.name).join(', ')}` });
    }
  }
  return specs.filter((spec) => names.includes(spec.name));
}

/** Every filter is compiled before anything is sent. */
export async function validateFilters(specs: readonly RequestSpec[], options: RunOptions): Promise<void> {
  if (options.filter !== undefined) await validateFilter(options.filter, ' (--filter)');
  for (const spec of specs) {
    const filter = requestFilter(options, spec.annotations);
    if (filter !== undefined && filter !== options.filter) await validateFilter(filter, ` in request "${spec.name}" (${spec.source.file}:${spec.source.line})`);
  }
}
