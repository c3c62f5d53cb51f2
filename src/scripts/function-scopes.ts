/**
 * The scopes of a script's code (acorn's tree), as much as carrying an exported function to a
 * later script needs (exported-functions.ts): for every function and class, the names it reads or
 * changes from outside itself — and which scope of the script declares each (its top level, or
 * code around it), or none (a global) — and the script's top-level declarations.
 *
 * The scopes are eslint-scope's (the ESLint team's scope analysis; docs/development.md says why),
 * read with three additions it does not make: an object a function changes through a member
 * (`x.a = 1`, `delete x.a`, `x.a++`) counts as a change of `x`; a block-level function declaration
 * of sloppy code is also a `var` of its function (Annex B, which eslint-scope does not model); and
 * `this`, which eslint-scope only flags on the function that binds it, is placed where it is
 * written, so that a class's computed key or `extends` that reads it counts. This module is loaded
 * only when a script exports a function (exported-functions.ts imports it lazily).
 */
import { ancestor } from 'acorn-walk';
import { analyze, type Reference, type Scope } from 'eslint-scope';

export interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A name a function reads or changes from outside itself. */
export interface FreeName {
  /** The scope that declares it: the script's top level, code around the function, or none (a global). */
  declared: 'top' | 'around' | 'global';
  /** Assigned, incremented, or an object it holds changed (`x.a = 1`, `delete x.a`). */
  written: boolean;
}

export interface FunctionInfo {
  node: AstNode;
  /** An object's or a class's method, getter or setter: its text alone is no function. */
  method: boolean;
  free: Map<string, FreeName>;
}

export interface ScriptScopes {
  /** Every function and class of the script, by where it starts. */
  functions: Map<number, FunctionInfo>;
  /** The top level's declarations: a function, a class, or a `const`/`let`/`var` of one name (its declarator). */
  declarations: Map<string, AstNode>;
  /** Top-level and global names the script assigns anywhere (their value at its end may not be the one declared). */
  assigned: Set<string>;
}

/** One use of a name: eslint-scope's reference, where it is written, and whether it changes the name. */
interface Use {
  reference: Reference;
  at: number;
  written: boolean;
}

/** What the walk over the tree finds that eslint-scope's references do not say. */
interface Walked {
  /** The identifiers at the root of a changed member (`x` of `x.a.b = 1`). */
  changedRoots: Set<AstNode>;
  /** The functions that are an object's or a class's method, getter or setter. */
  methods: Set<AstNode>;
  /** Each `this`, with the arrows and classes between it and the function that binds it (none: the script's). */
  thisUses: Array<{ at: number; through: AstNode[]; bound: boolean }>;
}

/** eslint-scope reads `ecmaVersion >= 6` for block scopes: a number, as acorn's 'latest' would read as ES5. */
const ECMA_VERSION = 2025;

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** The identifiers whose object an assignment target changes (`x.a`, `[x.a, { b: y.c }]`). */
function changedRoots(target: unknown, into: Set<AstNode>): void {
  if (!isNode(target)) return;
  if (target.type === 'MemberExpression') {
    let root: unknown = target;
    while (isNode(root) && root.type === 'MemberExpression') root = root.object;
    if (isNode(root) && root.type === 'Identifier') into.add(root);
  } else if (target.type === 'ObjectPattern') for (const property of target.properties as AstNode[]) changedRoots(property.type === 'RestElement' ? property.argument : property.value, into);
  else if (target.type === 'ArrayPattern') for (const element of target.elements as unknown[]) changedRoots(element, into);
  else if (target.type === 'AssignmentPattern') changedRoots(target.left, into);
  else if (target.type === 'RestElement') changedRoots(target.argument, into);
}

function walk(program: AstNode): Walked {
  const walked: Walked = { changedRoots: new Set(), methods: new Set(), thisUses: [] };
  type Visit = (node: AstNode, state: unknown, ancestors: AstNode[]) => void;
  const visitors: Record<string, Visit> = {
    AssignmentExpression: (node) => changedRoots(node.left, walked.changedRoots),
    UpdateExpression: (node) => changedRoots(node.argument, walked.changedRoots),
    UnaryExpression: (node) => void (node.operator === 'delete' && changedRoots(node.argument, walked.changedRoots)),
    ForInStatement: (node) => void ((node.left as AstNode).type !== 'VariableDeclaration' && changedRoots(node.left, walked.changedRoots)),
    ForOfStatement: (node) => void ((node.left as AstNode).type !== 'VariableDeclaration' && changedRoots(node.left, walked.changedRoots)),
    Property: (node) => void ((node.method === true || node.kind === 'get' || node.kind === 'set') && walked.methods.add(node.value as AstNode)),
    MethodDefinition: (node) => void walked.methods.add(node.value as AstNode),
    ThisExpression: (node, _state, ancestors) => {
      const through: AstNode[] = [];
      for (let i = ancestors.length - 2; i >= 0; i--) {
        const around = ancestors[i] as AstNode;
        const binds = around.type === 'FunctionDeclaration' || around.type === 'FunctionExpression' || around.type === 'StaticBlock' || (around.type === 'PropertyDefinition' && ancestors[i + 1] === around.value);
        if (binds) return void walked.thisUses.push({ at: node.start, through, bound: true });
        if (around.type === 'ArrowFunctionExpression' || around.type === 'ClassDeclaration' || around.type === 'ClassExpression') through.push(around);
      }
      walked.thisUses.push({ at: node.start, through, bound: false });
    },
  };
  ancestor(program as never, visitors as never);
  return walked;
}

/**
 * The scope that declares what a reference names: eslint-scope's resolution — or, for a name it
 * leaves unresolved, the script's top level when that declares it (eslint-scope resolves no
 * top-level `var` or function of a script: the global object could replace them) — unless a scope
 * on the way declares it by Annex B (a block-level function of sloppy code, which eslint-scope
 * leaves to its block).
 */
function declaringScope(reference: Reference, global: Scope, annexB: ReadonlyMap<Scope, ReadonlySet<string>>): Scope | undefined {
  const { name } = reference.identifier;
  const resolved = reference.resolved?.scope ?? (global.set.has(name) ? global : undefined);
  for (let scope: Scope | null = reference.from; scope && scope !== resolved; scope = scope.upper) if (annexB.get(scope)?.has(name)) return scope;
  return resolved;
}

/** The scopes of a script parsed by acorn with `ranges: true` (eslint-scope reads `range`), its `Program`. */
export function scriptScopes(program: AstNode): ScriptScopes {
  const manager = analyze(program, { ecmaVersion: ECMA_VERSION, sourceType: 'script', ignoreEval: true });
  const walked = walk(program);
  const functions = new Map<number, FunctionInfo>();
  const byScope = new Map<Scope, FunctionInfo>();
  const byNode = new Map<AstNode, FunctionInfo>();
  const annexB = new Map<Scope, Set<string>>();
  const uses: Use[] = [];
  for (const scope of manager.scopes) {
    const node = scope.block as unknown as AstNode;
    if (scope.type === 'function' || scope.type === 'class') {
      const info: FunctionInfo = { node, method: walked.methods.has(node), free: new Map() };
      functions.set(node.start, info);
      byScope.set(scope, info);
      byNode.set(node, info);
    }
    // Annex B: in sloppy code a function declared in a block is also a `var` of the function around the block.
    if ((scope.type === 'block' || scope.type === 'switch') && !scope.isStrict) {
      for (const variable of scope.variables) {
        if (variable.defs.some((def) => def.type === 'FunctionName')) {
          const names = annexB.get(scope.variableScope) ?? new Set<string>();
          annexB.set(scope.variableScope, names.add(variable.name));
        }
      }
    }
    for (const reference of scope.references) {
      const identifier = reference.identifier as unknown as AstNode;
      const written = (reference.isWrite() && !reference.init) || walked.changedRoots.has(identifier);
      uses.push({ reference, at: identifier.start, written });
    }
  }

  const declarations = new Map<string, AstNode>();
  for (const statement of program.body as AstNode[]) {
    if ((statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') && isNode(statement.id)) declarations.set(statement.id.name as string, statement);
    if (statement.type === 'VariableDeclaration') for (const declarator of statement.declarations as AstNode[]) if (isNode(declarator.id) && declarator.id.type === 'Identifier') declarations.set(declarator.id.name as string, declarator);
  }

  const assigned = new Set<string>();
  const free = (info: FunctionInfo, name: string, declared: FreeName['declared'], written: boolean): void => {
    info.free.set(name, { declared, written: written || info.free.get(name)?.written === true });
  };
  // In the order they are written, as the first name a function cannot take along is the one its refusal names.
  const ordered: Array<Use | Walked['thisUses'][number]> = [...uses, ...walked.thisUses].sort((a, b) => a.at - b.at);
  for (const use of ordered) {
    if (!('reference' in use)) {
      for (const node of use.through) free(byNode.get(node) as FunctionInfo, 'this', use.bound ? 'around' : 'global', false);
      continue;
    }
    const { name } = use.reference.identifier;
    const declaring = declaringScope(use.reference, manager.globalScope, annexB);
    const declared = declaring === undefined ? 'global' : declaring.type === 'global' ? 'top' : 'around';
    if (use.written && declared !== 'around') assigned.add(name);
    // Free in every function and class between the use and the declaring scope (a named function
    // expression's own name is in a scope of its own around it, whose block is that function).
    for (let scope: Scope | null = use.reference.from; scope && scope.block !== declaring?.block; scope = scope.upper) {
      const info = byScope.get(scope);
      if (info) free(info, name, declared, use.written);
    }
  }
  return { functions, declarations, assigned };
}
