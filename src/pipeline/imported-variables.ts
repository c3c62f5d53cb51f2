/**
 * httpyac's `# @import ./auth.http` while a file is parsed (loaded only for a file that has one):
 * the file variables of the imported file (as they stand at its end) are the request's too,
 * under its own. A file importing itself, directly or through others, adds nothing. (Its named
 * requests become known when the request runs: src/chain/.)
 */
import { resolve } from 'node:path';
import { ParseError, UsageError } from '../core/errors/index.js';
import type { ChainSpec, RequestSpec } from '../core/model.js';

type Variables = Readonly<Record<string, string>>;

/** The variables each importing request takes (by position), in the order of its imports. */
export async function importedVariables(
  imports: ReadonlyMap<number, NonNullable<ChainSpec['imports']>>,
  { file, path }: { file: string; path: string },
  importing: ReadonlySet<string>,
  parse: (target: string, importing: ReadonlySet<string>) => Promise<RequestSpec[]>,
): Promise<Map<number, Variables[]>> {
  const byFile = new Map<string, Variables>();
  const taken = new Map<number, Variables[]>();
  for (const [index, list] of imports) {
    for (const { path: relative, line } of list) {
      const target = resolve(path, '..', relative);
      if (importing.has(target)) continue;
      let variables = byFile.get(target);
      if (!variables) {
        const own = await parse(target, importing).catch((error: unknown) => {
          throw error instanceof UsageError && !(error instanceof ParseError) ? new UsageError(`${file}:${line}: # @import ${relative}: ${error.message}`) : error;
        });
        variables = own.at(-1)?.fileVariables ?? {};
        byFile.set(target, variables);
      }
      taken.set(index, [...(taken.get(index) ?? []), variables]);
    }
  }
  return taken;
}
