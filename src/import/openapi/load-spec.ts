/**
 * Reads an OpenAPI 3.0/3.1 or Swagger 2.0 file with `@readme/openapi-parser`: YAML or JSON,
 * every `$ref` resolved — within the file and to other `.json`, `.yaml` and `.yml` files of its
 * project (spec-files.ts: which files, and why no others). The spec's size once its `$ref`s and
 * aliases are expanded is bounded before the library walks it (ref-expansion.ts). A spec that
 * does not validate is still imported, with a warning: real specs often have small mistakes that
 * do not stop a request.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dereference, validate } from '@readme/openapi-parser';
import { UsageError } from '../../core/errors/index.js';
import { notAFile } from '../../core/not-a-file.js';
import { asRecord } from '../source.js';
import { MAX_EXPANDED_VALUES, refExpansionPastLimit } from './ref-expansion.js';
import { plainSchemaNumbers } from './schema-numbers.js';
import { SpecFiles } from './spec-files.js';
import { firstLine } from '../../core/first-line.js';

export type SpecVersion = '2.0' | '3.0' | '3.1';

export interface LoadedSpec {
  version: SpecVersion;
  document: Record<string, unknown>;
}

/** The first line of a parser's message, without the file's absolute path it repeats. */
function parserLine(error: unknown): string {
  return firstLine(error).replace(/^Error (parsing|opening file) \S+:?\s*/, '');
}

export async function loadSpec(path: string, warn: (message: string) => void, maxBytes: number): Promise<LoadedSpec> {
  const kind = notAFile(path, { pipe: true }); // named on the command line
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
  // Every file read (and refused past --max-size, or nested past 1,000 levels) by SpecFiles; numbers kept as written.
  const files = new SpecFiles(path, maxBytes);
  const document = asRecord(await files.value(path));
  const stated = String(document?.openapi ?? document?.swagger ?? '');
  const version: SpecVersion | undefined = stated === '2.0' ? '2.0' : /^3\.0\./.test(stated) ? '3.0' : /^3\.1\./.test(stated) ? '3.1' : undefined;
  if (!document || version === undefined) {
    throw new UsageError(`${path}: not an OpenAPI or Swagger document${stated ? ` (version "${stated}")` : ' (no "openapi" or "swagger" field)'}`, { hint: 'reqflow imports OpenAPI 3.0, 3.1 and Swagger 2.0' });
  }
  if (asRecord(document.paths) === undefined) throw new UsageError(`${path}: the spec has no "paths": nothing to import`);
  const past = await refExpansionPastLimit(files, path);
  if (past !== undefined) {
    throw new UsageError(`${path}: its $refs expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en')} values (at ${past}): not imported`, { hint: 'a schema referred to many times at each of many levels: write an example in the spec, or fewer levels' });
  }
  try {
    const result = await validate(path, files.options('plain'));
    if (!result.valid) warn(`${path} does not validate as ${result.specification ?? 'OpenAPI'} ${stated}: ${parserLine(result.errors[0]?.message)}; imported anyway`);
  } catch (error) {
    // A file refused is exit 2 (below); a library that fails on the spec only leaves it unvalidated.
    if (files.refused === undefined) warn(`${path} could not be validated: ${parserLine(error)}; imported anyway`);
  }
  try {
    const dereferenced = (await dereference(path, files.options())) as unknown as Record<string, unknown>;
    // An example's `1.10` and 64-bit ids are sent as the spec writes them; a schema's bounds are numbers to the sampler.
    plainSchemaNumbers(dereferenced);
    return { version, document: dereferenced };
  } catch (error) {
    if (files.refused !== undefined) throw new UsageError(`${path}: ${files.refused}`);
    const message = parserLine(error);
    throw new UsageError(`${path}: ${message}`, /https?:\/\//.test(message) ? { hint: 'remote $refs are not fetched: save the referenced file beside the spec and refer to it by its path' } : {});
  }
}
