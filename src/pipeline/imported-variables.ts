/**
 * httpyac's `# @import ./auth.http` while a file is parsed (loaded only for a file that has one):
 * the file variables of the imported file (as they stand at its end) are the request's too,
 * under its own, and its global scripts (`{{ }}` blocks with no request) run before the request's
 * own — httpyac executes an imported file's global regions where the import stands
 * (`importHttpFileInContext` → `executeGlobalScripts`, `src/utils/processorContextUtils.ts`) and
 * merges their request hooks. The imported file may hold no request at all: a file of `@variables`
 * and `{{ }}` helpers shared by many is what such an import is usually for. A file importing itself,
 * directly or through others, adds nothing. (Its named requests become known when the request runs:
 * src/chain/.)
 */
import { resolve } from 'node:path';
import { NoRequestsError, ParseError, UsageError } from '../core/errors/index.js';
import type { ChainSpec, RequestSpec, ScriptSpec } from '../core/model.js';
import { readRequestFile } from './read-request-source.js';
import { decodeRequestFile } from './decode-request-file.js';
// Request files in another format (YAML, JSON) have no global scripts nor a file scope to read.
import { isHttpText } from './request-formats.js';

type Variables = Readonly<Record<string, string>>;

/**
 * How many files deep imports may go (a file importing one that imports another, …): each file's
 * variables hold those of every file below it, so a chain of thousands holds millions. Real ones
 * go a few deep.
 */
const MAX_IMPORT_DEPTH = 100;

/** What one imported file gives the requests below the import. */
export interface Imported {
  variables: Variables;
  /** Its global scripts (and those of the files it imports), each with the file it is written in. */
  scripts: readonly ScriptSpec[];
}

/** The `# @import`s of one parse, from the file read first down to the one being read. */
export interface ImportWalk {
  /** The files importing this one, itself included: an import of one of them adds nothing (a cycle). */
  importing: ReadonlySet<string>;
  /**
   * What each file imported so far gives, by path, for the whole parse: each is read once, however
   * many files import it — a chain of files each importing the next was read again by every file
   * above it, twice (2^n reads: 16 files took minutes).
   */
  scopes: Map<string, Promise<Imported>>;
}

/** What each importing request takes (by position), in the order of its imports. */
export async function importedVariables(
  imports: ReadonlyMap<number, NonNullable<ChainSpec['imports']>>,
  { file, path }: { file: string; path: string },
  walk: ImportWalk,
  parse: (target: string, walk: ImportWalk) => Promise<RequestSpec[]>,
): Promise<Map<number, Imported[]>> {
  const taken = new Map<number, Imported[]>();
  const scopeOf = (target: string, relative: string, line: number, from: { file: string; path: string }, within: ReadonlySet<string>): Promise<Imported> => {
    const known = walk.scopes.get(target);
    if (known) return known;
    const scope = readScope(target, relative, line, from, within);
    walk.scopes.set(target, scope);
    return scope;
  };
  const readScope = async (target: string, relative: string, line: number, from: { file: string; path: string }, within: ReadonlySet<string>): Promise<Imported> => {
    if (within.size >= MAX_IMPORT_DEPTH) {
      // A ParseError: not wrapped again by each of the files above (named() below).
      throw new ParseError(from.file, line, 1, `# @import ${relative}: imports go more than ${MAX_IMPORT_DEPTH} files deep (each file importing the next)`, { hint: 'import the files a request needs from its own file' });
    }
    const named = (error: unknown): unknown => (error instanceof UsageError && !(error instanceof ParseError) ? new UsageError(`${from.file}:${line}: # @import ${relative}: ${error.message}`) : error);
    let own: RequestSpec[] = [];
    let empty = false;
    try {
      own = await parse(target, { importing: within, scopes: walk.scopes });
    } catch (error) {
      if (!(error instanceof NoRequestsError) || !isHttpText(target)) throw named(error);
      empty = true;
    }
    let imported: Imported = { variables: own.at(-1)?.fileVariables ?? {}, scripts: [] };
    if (isHttpText(target)) {
      const text = decodeRequestFile(await readRequestFile(relative, target).catch((error: unknown) => Promise.reject(named(error))), relative);
      const scope = (await import('../plugins/format-http/parse-http.js')).importedHttpScope(text, relative);
      // The files it imports at its top come first, its own below them (a file with requests has them in its variables already).
      const nested: Imported[] = [];
      const deeper = new Set([...within, target]);
      for (const next of scope.imports) {
        const nextTarget = resolve(target, '..', next.path);
        if (deeper.has(nextTarget)) continue;
        nested.push(await scopeOf(nextTarget, next.path, next.line, { file: relative, path: target }, deeper));
      }
      const scripts = [...nested.flatMap((one) => one.scripts), ...scope.globals.map((script) => ({ ...script, file: target }))];
      imported = empty ? { variables: Object.assign({}, ...nested.map((one) => one.variables), scope.variables) as Variables, scripts } : { ...imported, scripts };
    }
    return imported;
  };
  for (const [index, list] of imports) {
    for (const { path: relative, line } of list) {
      const target = resolve(path, '..', relative);
      if (walk.importing.has(target)) continue;
      taken.set(index, [...(taken.get(index) ?? []), await scopeOf(target, relative, line, { file, path }, walk.importing)]);
    }
  }
  return taken;
}
