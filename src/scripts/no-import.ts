/**
 * `import()` in a script would reach Node's module loader, and its rejection is an error of
 * reqflow's realm (a way out of the sandbox). No option of `node:vm` turns it off without
 * `--experimental-vm-modules`, so scripts are parsed first (acorn) and refused when they use
 * `import()` or `import.meta`. Code acorn cannot parse is refused too, unless V8 rejects it as
 * well (then the script fails with V8's own syntax error): what is not checked does not run.
 */
export interface Refusal {
  message: string;
  /** 1-based line within the code. */
  line: number;
}

export async function refuseImports(code: string, compiles: () => boolean): Promise<Refusal | undefined> {
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
  simple(ast, {
    ImportExpression(node) {
      found ??= { message: 'import() is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
    MetaProperty(node) {
      if (node.meta.name === 'import') found ??= { message: 'import.meta is not available in request-file scripts', line: node.loc?.start.line ?? 1 };
    },
  });
  return found;
}
