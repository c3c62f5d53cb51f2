// eslint-scope 8 ships no types (9, which does, needs Node.js 20.19): the part function-scopes.ts reads.
declare module 'eslint-scope' {
  interface Identifier {
    name: string;
  }

  export interface Reference {
    identifier: Identifier;
    /** The scope the reference is written in. */
    from: Scope;
    /** The variable it names, when eslint-scope resolves it statically. */
    resolved: Variable | null;
    /** A declaration's initialiser (`let x = 1`), not an assignment. */
    init?: boolean;
    isWrite(): boolean;
  }

  export interface Variable {
    name: string;
    scope: Scope;
    defs: Array<{ type: string }>;
  }

  export interface Scope {
    type: 'block' | 'catch' | 'class' | 'class-field-initializer' | 'class-static-block' | 'for' | 'function' | 'function-expression-name' | 'global' | 'module' | 'switch' | 'with';
    /** The node that makes the scope. */
    block: object;
    upper: Scope | null;
    /** The nearest scope `var` declares in: a function's, a class static block's, a field initialiser's or the global one. */
    variableScope: Scope;
    isStrict: boolean;
    set: Map<string, Variable>;
    variables: Variable[];
    /** The references written directly in this scope. */
    references: Reference[];
  }

  export interface ScopeManager {
    scopes: Scope[];
    globalScope: Scope;
  }

  export function analyze(tree: object, options?: { ecmaVersion?: number; sourceType?: 'script' | 'module' | 'commonjs'; ignoreEval?: boolean }): ScopeManager;
}
