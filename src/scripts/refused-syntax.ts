/**
 * What a script may not use, found by parsing it first (acorn) — code acorn cannot parse is
 * refused too, unless V8 rejects it as well (then the script fails with V8's own syntax
 * error): what is not checked does not run.
 * - `import()`, `import.meta`: they reach Node's module loader, and a rejected import is an
 *   error of reqflow's realm (a way out of the sandbox); no `node:vm` option turns it off.
 * - `async` functions and `await`: asynchronous code runs after the time limit stopped
 *   applying (and terminating it inside a microtask can abort Node). JetBrains' handler API
 *   is synchronous; with `Promise` also removed from the context, nothing can be deferred.
 */
export interface Refusal {
  message: string;
  /** 1-based line within the code. */
  line: number;
}

export async function refusedSyntax(code: string, compiles: () => boolean): Promise<Refusal | undefined> {
  const [{ parse }, { simple }] = await Promise.all([import('acorn'), import('acorn-walk')]);
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, locations: true });
  } catch (error) {
    if (!compiles()) return undefined; // V8's own SyntaxError says it better
    const line = (error as { loc?: { line: number } }).loc?.line ?? 1;
    return { message: `the script uses syntax reqflow cannot check (${(error as Error).message}); it does not run`, line };
  }
  let found: Refusal | undefined;
  const refuseAsync = (node: { async?: boolean; loc?: { start: { line: number } } | null }): void => {
    if (node.async === true) found ??= { message: 'async functions are not available in request-file scripts (the script API is synchronous)', line: node.loc?.start.line ?? 1 };
  };
  simple(ast, {
    FunctionDeclaration: refuseAsync,
    FunctionExpression: refuseAsync,
    ArrowFunctionExpression: refuseAsync,
    AwaitExpression(node) {
      found ??= { message: 'await is not available in request-file scripts (the script API is synchronous)', line: node.loc?.start.line ?? 1 };
    },
    ForOfStatement(node) {
      if (node.await) found ??= { message: 'for await is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
    ImportExpression(node) {
      found ??= { message: 'import() is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
    MetaProperty(node) {
      if (node.meta.name === 'import') found ??= { message: 'import.meta is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
  });
  return found;
}
