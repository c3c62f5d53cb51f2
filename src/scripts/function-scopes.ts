/**
 * The scopes of a script's code (acorn's tree), as much as carrying an exported function to a
 * later script needs (exported-functions.ts): for every function and class, the names it reads or
 * changes from outside itself — and which scope of the script declares each (its top level, or
 * code around it), or none (a global) — and the script's top-level declarations. JavaScript's
 * rules: `var` and (as Annex B reads them) block-level function declarations belong to the
 * function, `let`, `const` and `class` to their block; `this` and `arguments` to the nearest
 * function that is not an arrow.
 */

export interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

interface Scope {
  names: Set<string>;
  parent: Scope | undefined;
  depth: number;
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

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
const isFunction = (node: AstNode): boolean => node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';

/** The names a binding pattern declares (`{ a, b: [c], ...d } = …`). */
function patternNames(pattern: unknown, into: string[] = []): string[] {
  if (!isNode(pattern)) return into;
  if (pattern.type === 'Identifier') into.push(pattern.name as string);
  else if (pattern.type === 'ObjectPattern') for (const property of pattern.properties as AstNode[]) patternNames(property.type === 'RestElement' ? property.argument : property.value, into);
  else if (pattern.type === 'ArrayPattern') for (const element of pattern.elements as unknown[]) patternNames(element, into);
  else if (pattern.type === 'AssignmentPattern') patternNames(pattern.left, into);
  else if (pattern.type === 'RestElement') patternNames(pattern.argument, into);
  return into;
}

/** The `var`s (and block-level function declarations) of a function's body, not those of the functions inside it. */
function hoisted(node: unknown, into: Set<string>): Set<string> {
  if (!isNode(node) || isFunction(node) || node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
    if (isNode(node) && node.type === 'FunctionDeclaration' && isNode(node.id)) into.add(node.id.name as string);
    return into;
  }
  if (node.type === 'VariableDeclaration' && node.kind === 'var') for (const declarator of node.declarations as AstNode[]) for (const name of patternNames(declarator.id)) into.add(name);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(value)) for (const item of value) hoisted(item, into);
    else if (isNode(value)) hoisted(value, into);
  }
  return into;
}

/** The `let`, `const`, `class` and function declarations directly in a list of statements. */
function lexical(statements: readonly unknown[], into: Set<string>): Set<string> {
  for (const statement of statements) {
    if (!isNode(statement)) continue;
    if (statement.type === 'VariableDeclaration' && statement.kind !== 'var') for (const declarator of statement.declarations as AstNode[]) for (const name of patternNames(declarator.id)) into.add(name);
    if ((statement.type === 'ClassDeclaration' || statement.type === 'FunctionDeclaration') && isNode(statement.id)) into.add(statement.id.name as string);
  }
  return into;
}

/** The scopes of a parsed script (its `Program`). */
export function scriptScopes(program: AstNode): ScriptScopes {
  const functions = new Map<number, FunctionInfo>();
  const declarations = new Map<string, AstNode>();
  const assigned = new Set<string>();
  /** The functions and classes around the current node, each with the depth of its own scope. */
  const around: Array<{ info: FunctionInfo; depth: number }> = [];
  const top: Scope = { names: lexical(program.body as unknown[], hoisted(program, new Set())), parent: undefined, depth: 0 };
  const inner = (parent: Scope, names: Iterable<string>): Scope => ({ names: new Set(names), parent, depth: parent.depth + 1 });

  for (const statement of program.body as AstNode[]) {
    if ((statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') && isNode(statement.id)) declarations.set(statement.id.name as string, statement);
    if (statement.type === 'VariableDeclaration') for (const declarator of statement.declarations as AstNode[]) if (isNode(declarator.id) && declarator.id.type === 'Identifier') declarations.set(declarator.id.name as string, declarator);
  }

  const use = (name: string, scope: Scope, written: boolean): void => {
    let declaring: Scope | undefined = scope;
    while (declaring && !declaring.names.has(name)) declaring = declaring.parent;
    if (written && (declaring === undefined || declaring === top)) assigned.add(name);
    const depth = declaring?.depth ?? -1;
    for (const { info, depth: own } of around) {
      if (depth >= own) continue; // declared inside that function
      const declared = declaring === undefined ? 'global' : declaring === top ? 'top' : 'around';
      const known = info.free.get(name);
      info.free.set(name, { declared, written: written || known?.written === true });
    }
  };

  /** An assignment's target: its names are written, and a member's object is changed. */
  const target = (node: unknown, scope: Scope): void => {
    if (!isNode(node)) return;
    if (node.type === 'Identifier') use(node.name as string, scope, true);
    else if (node.type === 'MemberExpression') {
      let root: unknown = node;
      while (isNode(root) && root.type === 'MemberExpression') root = root.object;
      if (isNode(root) && root.type === 'Identifier') use(root.name as string, scope, true);
      visit(node, scope);
    } else if (node.type === 'ObjectPattern') for (const property of node.properties as AstNode[]) {
      if (property.type === 'RestElement') target(property.argument, scope);
      else {
        if (property.computed === true) visit(property.key, scope);
        target(property.value, scope);
      }
    } else if (node.type === 'ArrayPattern') for (const element of node.elements as unknown[]) target(element, scope);
    else if (node.type === 'AssignmentPattern') {
      target(node.left, scope);
      visit(node.right, scope);
    } else if (node.type === 'RestElement') target(node.argument, scope);
  };

  /** A declaration's pattern: its names are declared already; its defaults and computed keys are read. */
  const bindingReads = (node: unknown, scope: Scope): void => {
    if (!isNode(node)) return;
    if (node.type === 'ObjectPattern') for (const property of node.properties as AstNode[]) {
      if (property.type === 'RestElement') bindingReads(property.argument, scope);
      else {
        if (property.computed === true) visit(property.key, scope);
        bindingReads(property.value, scope);
      }
    } else if (node.type === 'ArrayPattern') for (const element of node.elements as unknown[]) bindingReads(element, scope);
    else if (node.type === 'AssignmentPattern') {
      bindingReads(node.left, scope);
      visit(node.right, scope);
    } else if (node.type === 'RestElement') bindingReads(node.argument, scope);
  };

  const enter = (node: AstNode, method: boolean, depth: number): void => {
    const info: FunctionInfo = { node, method, free: new Map() };
    functions.set(node.start, info);
    around.push({ info, depth });
  };

  const fn = (node: AstNode, scope: Scope, method: boolean): void => {
    const body = node.body as AstNode;
    const names = new Set<string>();
    for (const param of node.params as unknown[]) for (const name of patternNames(param)) names.add(name);
    if (node.type !== 'ArrowFunctionExpression') names.add('this').add('arguments');
    if (node.type === 'FunctionExpression' && isNode(node.id)) names.add(node.id.name as string);
    if (body.type === 'BlockStatement') lexical(body.body as unknown[], hoisted(body, names));
    const own = inner(scope, names);
    enter(node, method, own.depth);
    for (const param of node.params as unknown[]) bindingReads(param, own);
    if (body.type === 'BlockStatement') for (const statement of body.body as unknown[]) visit(statement, own);
    else visit(body, own);
    around.pop();
  };

  const cls = (node: AstNode, scope: Scope): void => {
    const own = inner(scope, isNode(node.id) ? [node.id.name as string] : []);
    enter(node, false, own.depth);
    visit(node.superClass, own);
    for (const member of (node.body as AstNode).body as AstNode[]) {
      if (member.computed === true) visit(member.key, own);
      if (member.type === 'MethodDefinition') fn(member.value as AstNode, own, true);
      else if (member.type === 'PropertyDefinition') visit(member.value, inner(own, ['this']));
      else if (member.type === 'StaticBlock') {
        const block = inner(own, lexical(member.body as unknown[], hoisted(member, new Set(['this']))));
        for (const statement of member.body as unknown[]) visit(statement, block);
      }
    }
    around.pop();
  };

  function visit(node: unknown, scope: Scope): void {
    if (!isNode(node)) return;
    switch (node.type) {
      case 'Identifier':
        use(node.name as string, scope, false);
        return;
      case 'ThisExpression':
        use('this', scope, false);
        return;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        fn(node, scope, false);
        return;
      case 'ClassDeclaration':
      case 'ClassExpression':
        cls(node, scope);
        return;
      case 'BlockStatement': {
        const block = inner(scope, lexical(node.body as unknown[], new Set()));
        for (const statement of node.body as unknown[]) visit(statement, block);
        return;
      }
      case 'SwitchStatement': {
        visit(node.discriminant, scope);
        const cases = node.cases as AstNode[];
        const block = inner(scope, lexical(cases.flatMap((one) => one.consequent as unknown[]), new Set()));
        for (const one of cases) {
          visit(one.test, block);
          for (const statement of one.consequent as unknown[]) visit(statement, block);
        }
        return;
      }
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement': {
        const head = (node.type === 'ForStatement' ? node.init : node.left) as AstNode | null;
        const loop = isNode(head) && head.type === 'VariableDeclaration' && head.kind !== 'var' ? inner(scope, lexical([head], new Set())) : scope;
        if (node.type === 'ForStatement') {
          visit(node.init, loop);
          visit(node.test, loop);
          visit(node.update, loop);
        } else {
          if (isNode(head) && head.type === 'VariableDeclaration') visit(head, loop);
          else target(head, loop);
          visit(node.right, loop);
        }
        visit(node.body, loop);
        return;
      }
      case 'CatchClause': {
        const own = inner(scope, patternNames(node.param));
        bindingReads(node.param, own);
        visit(node.body, own);
        return;
      }
      case 'VariableDeclaration':
        for (const declarator of node.declarations as AstNode[]) {
          bindingReads(declarator.id, scope);
          visit(declarator.init, scope);
        }
        return;
      case 'AssignmentExpression':
        target(node.left, scope);
        visit(node.right, scope);
        return;
      case 'UpdateExpression':
        target(node.argument, scope);
        return;
      case 'UnaryExpression':
        if (node.operator === 'delete' && isNode(node.argument) && node.argument.type === 'MemberExpression') target(node.argument, scope);
        else visit(node.argument, scope);
        return;
      case 'MemberExpression':
        visit(node.object, scope);
        if (node.computed === true) visit(node.property, scope);
        return;
      case 'Property':
        if (node.computed === true) visit(node.key, scope);
        if ((node.method === true || node.kind === 'get' || node.kind === 'set') && isNode(node.value)) fn(node.value, scope, true);
        else visit(node.value, scope);
        return;
      case 'LabeledStatement':
        visit(node.body, scope);
        return;
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'MetaProperty':
      case 'PrivateIdentifier':
      case 'Super':
        return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc') continue;
      if (Array.isArray(value)) for (const item of value) visit(item, scope);
      else if (isNode(value)) visit(value, scope);
    }
  }

  for (const statement of program.body as unknown[]) visit(statement, top);
  return { functions, declarations, assigned };
}
