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

/** What one imported file gives the requests below the import. */
export interface Imported {
  variables: Variables;
  /** Its global scripts (and those of the files it imports), each with the file it is written in. */
  scripts: readonly ScriptSpec[];
}

/** What each importing request takes (by position), in the order of its imports. */
export async function importedVariables(
  imports: ReadonlyMap<number, NonNullable<ChainSpec['imports']>>,
  { file, path }: { file: string; path: string },
  importing: ReadonlySet<string>,
  parse: (target: string, importing: ReadonlySet<string>) => Promise<RequestSpec[]>,
): Promise<Map<number, Imported[]>> {
  const byFile = new Map<string, Imported>();
  const taken = new Map<number, Imported[]>();
  const scopeOf = async (target: string, relative: string, line: number, from: { file: string; path: string }, within: ReadonlySet<string>): Promise<Imported> => {
    const known = byFile.get(target);
    if (known) return known;
    const named = (error: unknown): unknown => (error instanceof UsageError && !(error instanceof ParseError) ? new UsageError(`${from.file}:${line}: # @import ${relative}: ${error.message}`) : error);
    let own: RequestSpec[] = [];
    let empty = false;
    try {
      own = await parse(target, within);
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
    byFile.set(target, imported);
    return imported;
  };
  for (const [index, list] of imports) {
    for (const { path: relative, line } of list) {
      const target = resolve(path, '..', relative);
      if (importing.has(target)) continue;
      taken.set(index, [...(taken.get(index) ?? []), await scopeOf(target, relative, line, { file, path }, importing)]);
    }
  }
  return taken;
}
