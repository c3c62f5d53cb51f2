/**
 * Reads an OpenAPI 3.0/3.1 or Swagger 2.0 file with `@readme/openapi-parser`: YAML or JSON,
 * every `$ref` resolved — within the file and to other `.json`, `.yaml` and `.yml` files of its
 * project; remote ones are never fetched (an import does not reach the network). A spec comes
 * from someone else: a `$ref` to `~/.aws/credentials` would put that file's text into an example
 * body, sent to the spec's server by the first run of the imported request. A spec that does not validate is still
 * imported, with a warning: real specs often have small mistakes that do not stop a request.
 */
import { readFile } from 'node:fs/promises';
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dereference, parse, validate } from '@readme/openapi-parser';
import { UsageError } from '../../core/errors/index.js';
import { notAFile } from '../../core/not-a-file.js';
import { isInside, projectRoot, real } from '../../core/project.js';
import { expansionPastLimit } from '../../plugins/format-yaml/alias-expansion.js';
import { asRecord, refuseDeepNesting } from '../source.js';

export type SpecVersion = '2.0' | '3.0' | '3.1';

export interface LoadedSpec {
  version: SpecVersion;
  document: Record<string, unknown>;
}

/** The first line of a parser's message, without the file's absolute path it repeats. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/^Error (parsing|opening file) \S+:?\s*/, '') ?? '';
}

const SPEC_FILES = new Set(['.json', '.yaml', '.yml']);

interface FileResolver {
  canRead: (file: { url: string }) => boolean;
  read: (file: { url: string }) => Promise<Buffer>;
  /** Why a $ref was not read (the parser's own error says only "Error reading file"). */
  refused?: string;
}

/** The file resolver: the spec itself, and JSON or YAML files inside its project (src/core/project.ts), nothing else. */
function projectFiles(spec: string): FileResolver {
  const own = real(resolve(spec));
  const root = projectRoot(dirname(own));
  const pathOf = (url: string): string => (url.startsWith('file:') ? fileURLToPath(url) : resolve(url));
  const resolver: FileResolver = {
    canRead: (file) => !/^[a-z][a-z0-9+.-]+:\/\//i.test(file.url) || file.url.startsWith('file:'),
    read: (file) => {
      const path = real(pathOf(file.url));
      const kind = notAFile(path);
      const why =
        path === own ? undefined
        : !isInside(root, path) ? `outside the spec's project (${root})`
        : !SPEC_FILES.has(extname(path).toLowerCase()) ? 'only .json, .yaml and .yml files are read'
        : undefined;
      resolver.refused = why ?? (kind ? `it is ${kind}, not a file` : undefined);
      if (resolver.refused !== undefined) {
        resolver.refused = `$ref to ${path} not read: ${resolver.refused}`;
        return Promise.reject(new Error(resolver.refused));
      }
      return readFile(path);
    },
  };
  return resolver;
}

function optionsFor(file: FileResolver): never {
  return {
    // `canRead: false` turns the http resolver off: remote $refs are an error, never a download.
    resolve: { file, http: { canRead: false } },
    // A schema that refers to itself stays a $ref where it loops (the sampler resolves it on its own).
    dereference: { circular: 'ignore' as const },
  } as never;
}

/** The parser's options that read only the spec and its project's JSON/YAML files (no remote `$ref`), and why a `$ref` was refused. */
export function confinedRefs(spec: string): { options: never; refused: () => string | undefined } {
  const files = projectFiles(spec);
  return { options: optionsFor(files), refused: () => files.refused };
}

/**
 * Whether the spec's text can hold a YAML alias at all: JSON has none, and YAML without an anchor
 * (`&name` where a node starts, not the `&` of `?a=1&b=2`) has nothing to refer to. Such a document
 * is exactly as large as its text, so the expansion count would only refuse a large real spec
 * (3,500 paths, 15 MB of JSON) for aliases it has not.
 */
function mayHoldAliases(text: string): boolean {
  if (!/(?:^|[\s[{,:])&[^\s,[\]{}]/m.test(text)) return false;
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return false;
  } catch {
    return true;
  }
}

export async function loadSpec(path: string, warn: (message: string) => void): Promise<LoadedSpec> {
  const kind = notAFile(path);
  if (kind) throw new UsageError(`cannot read ${path}: it is ${kind}, not a file`);
  // Said before the parser is asked: it words a missing or unreadable file as a parse error.
  try {
    accessSync(path, constants.R_OK);
    if (statSync(path).isDirectory()) throw new UsageError(`cannot read ${path}: it is a folder, not a file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${code ?? String(error)}`);
  }
  const files = projectFiles(path);
  const OPTIONS = optionsFor(files);
  let raw: unknown;
  try {
    raw = await parse(path, OPTIONS);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (/ENOENT/.test(String((error as Error).message)) || code === 'ENOENT') throw new UsageError(`no such file: ${path}`);
    throw new UsageError(`${path}: not valid YAML or JSON: ${firstLine(error)}`, { hint: 'expected an OpenAPI 3.x or Swagger 2.0 description' });
  }
  // The YAML parser hands back one shared object per anchor; validating and dereferencing walk every repetition (a 700-byte "billion laughs" took 43 s), wherever in the spec it is.
  const past = mayHoldAliases(await readFile(path, 'utf8')) ? expansionPastLimit(raw) : undefined;
  if (past !== undefined) throw new UsageError(`${path}: its YAML aliases (*name) expand to more than ${past}: not imported`, { hint: 'write the repeated parts out, or remove the aliases' });
  refuseDeepNesting(raw, path);
  const document = asRecord(raw);
  const stated = String(document?.openapi ?? document?.swagger ?? '');
  const version: SpecVersion | undefined = stated === '2.0' ? '2.0' : /^3\.0\./.test(stated) ? '3.0' : /^3\.1\./.test(stated) ? '3.1' : undefined;
  if (!document || version === undefined) {
    throw new UsageError(`${path}: not an OpenAPI or Swagger document${stated ? ` (version "${stated}")` : ' (no "openapi" or "swagger" field)'}`, { hint: 'reqflow imports OpenAPI 3.0, 3.1 and Swagger 2.0' });
  }
  if (asRecord(document.paths) === undefined) throw new UsageError(`${path}: the spec has no "paths": nothing to import`);
  try {
    const result = await validate(path, OPTIONS);
    if (!result.valid) warn(`${path} does not validate as ${result.specification ?? 'OpenAPI'} ${stated}: ${firstLine(result.errors[0]?.message)}; imported anyway`);
  } catch (error) {
    warn(`${path} could not be validated: ${files.refused ?? firstLine(error)}; imported anyway`);
  }
  try {
    return { version, document: (await dereference(path, OPTIONS)) as unknown as Record<string, unknown> };
  } catch (error) {
    const message = files.refused ?? firstLine(error);
    throw new UsageError(`${path}: ${message}`, /https?:\/\//.test(message) ? { hint: 'remote $refs are not fetched: save the referenced file beside the spec and refer to it by its path' } : {});
  }
}
