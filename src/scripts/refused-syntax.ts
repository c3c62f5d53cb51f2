/**
 * What a script may not use, found by parsing it first (acorn) — code acorn cannot parse is
 * refused too, unless V8 rejects it as well (then the script fails with V8's own syntax
 * error): what is not checked does not run.
 * - `import()`, `import.meta`: they reach Node's module loader, and a rejected import is an
 *   error of reqflow's realm (a way out of the sandbox); no `node:vm` option turns it off.
 * `async` functions and `await` (top-level too, as httpyac runs its scripts) are allowed: the
 * context drains its promise jobs before `runInContext` returns, inside the time limit
 * (sandbox.ts), and nothing outside the script can resolve a promise later.
 */
export interface Refusal {
  /** Why the script does not run; none: it may run. */
  message?: string;
  /** 1-based line within the code. */
  line?: number;
  /** It awaits outside any function: sandbox.ts runs it as an async function's body. */
  topLevelAwait?: boolean;
}

export async function refusedSyntax(code: string, compiles: () => boolean): Promise<Refusal | undefined> {
  const [{ parse }, { simple }] = await Promise.all([import('acorn'), import('acorn-walk')]);
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, locations: true });
  } catch (error) {
    if (!compiles()) return undefined; // V8's own SyntaxError says it better
    const line = (error as { loc?: { line: number } }).loc?.line ?? 1;
    return { message: `the script uses syntax reqflow cannot check (${(error as Error).message}); it does not run`, line };
  }
  let found: Refusal | undefined;
  simple(ast, {
    ImportExpression(node) {
      found ??= { message: 'import() is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
    MetaProperty(node) {
      if (node.meta.name === 'import') found ??= { message: 'import.meta is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
  });
  if (found) return found;
  // An await outside every function: the script does not parse as a plain one.
  try {
    parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true });
    return undefined;
  } catch {
    return { topLevelAwait: true };
  }
}
