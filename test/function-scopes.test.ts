/**
 * The scopes carrying an exported function reads (src/scripts/function-scopes.ts, over
 * eslint-scope): for each function and class, the names it uses from outside itself, which scope
 * declares each, and whether it changes it; and the names the script assigns. Each function is
 * named by its text up to its body (methods have no name there). These held for the hand-written
 * analysis eslint-scope replaced, but for two cases eslint-scope reads as JavaScript does: a
 * block-level function of strict code is not its function's `var` (Annex B is for sloppy code
 * only), and a default parameter names the outer `x`, not the one its body declares.
 */
import { describe, expect, test } from '@jest/globals';
import { parse } from 'acorn';
import { type AstNode, scriptScopes } from '../src/scripts/function-scopes.js';

/** As exported-functions.ts parses a script. */
const parsed = (code: string): AstNode =>
  parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, ranges: true }) as unknown as AstNode;

/** Each function and class, in the order written: `head: name declared [written], …`. */
function described(code: string): { functions: string[]; assigned: string[] } {
  const scopes = scriptScopes(parsed(code));
  const head = (node: AstNode): string => {
    const text = code.slice(node.start, node.end);
    return node.type === 'ArrowFunctionExpression' ? `${(text.split('=>')[0] as string).trim()} =>` : (text.split('{')[0] as string).trim();
  };
  const functions = [...scopes.functions.values()]
    .sort((a, b) => a.node.start - b.node.start)
    .map((info) => `${head(info.node)}${info.method ? ' (method)' : ''}: ${[...info.free].map(([name, free]) => `${name} ${free.declared}${free.written ? ' written' : ''}`).join(', ')}`);
  return { functions, assigned: [...scopes.assigned] };
}

describe('scriptScopes: what each function uses from outside itself', () => {
  test.each([
  [
    'a counter',
    'let n = 0;\nexports.f = () => ++n;',
    ['() =>: n top written'],
    ['exports', 'n'],
  ],
  [
    'code around',
    'exports.f = (() => { const base = 10; return (x) => base + x; })();',
    ['() =>: ', '(x) =>: base around'],
    ['exports'],
  ],
  [
    'an object changed',
    'const cache = {};\nfunction put(k, v) { cache[k] = v; }\nfunction drop(k) { delete cache[k]; }\nfunction bump() { cache.n.m++; }\nfunction read(k) { return cache.a[k]; }\nfunction call() { cache.f().x = 1; }',
    ['function put(k, v): cache top written', 'function drop(k): cache top written', 'function bump(): cache top written', 'function read(k): cache top', 'function call(): cache top'],
    ['cache'],
  ],
  [
    'destructuring assignment',
    'let a, b;\nfunction f(o) { ({ a, x: [b = dflt], ...o.rest } = o); }\nfunction g(o) { [o.x, ...rest.y] = o; }\nfunction h(o) { for (t.k in o); for ([u] of o); for (const v of o) v; }',
    ['function f(o): a top written, b top written, dflt global', 'function g(o): rest global written', 'function h(o): t global written, u global written'],
    ['a', 'b', 'rest', 't', 'u'],
  ],
  [
    'this and arguments',
    'function f() { return this.x + arguments.length; }\nconst g = () => this;\nconst h = () => arguments;\nfunction k() { return () => this; }\nfunction m() { { const a = () => arguments; } }',
    ['function f(): ', '() =>: this global', '() =>: arguments global', 'function k(): ', '() =>: this around', 'function m(): ', '() =>: arguments around'],
    [],
  ],
  [
    'classes and methods',
    'class Base {}\nclass A extends Base {\n  static s = this.name;\n  x = this;\n  y = () => this;\n  [key]() { return helper(this, A); }\n  get g() { return 1; }\n  static { this.z = top; }\n}\nconst o = { m() { return 1; }, get p() { return 2; }, set p(v) { w = v; }, q: function () { return 3; } };\nexports.C = class { [this.k]() {} };\nconst D = class Named extends (this.base) { n() { return Named; } };',
    ['class Base: ', 'class A extends Base: Base top, key global, helper global, top global', '() =>: this around', '() (method): helper global, A around', '() (method): ', '() (method): ', '() (method): ', '(v) (method): w global written', 'function (): ', 'class: this global', '() (method): ', 'class Named extends (this.base): this global', '() (method): Named around'],
    ['w', 'exports'],
  ],
  [
    'Annex B: a block-level function',
    'if (true) { function helper() { return 1; } }\nfunction f() { return helper(); }\nfunction g() { { function inner() {} } return inner(); }\nfunction h() { { function own() {} own(); } }',
    ['function helper(): ', 'function f(): helper top', 'function g(): ', 'function inner(): ', 'function h(): ', 'function own(): '],
    [],
  ],
  [
    'Annex B in strict code',
    '"use strict";\nif (true) { function helper() { return 1; } }\nfunction f() { return helper(); }',
    ['function helper(): ', 'function f(): helper global'],
    [],
  ],
  [
    'a named function expression, recursion',
    'const fact = function fact(n) { return n ? n * fact(n - 1) : 1; };\nfunction rec() { return rec(); }',
    ['function fact(n): ', 'function rec(): rec top'],
    [],
  ],
  [
    'blocks, loops, catch, switch, labels',
    'function f(list) {\n  for (let i = 0; i < list.length; i++) { total += i; }\n  for (const k in list) use(k);\n  for (x of list);\n  try {} catch ({ message }) { log(message); }\n  switch (list) { case 1: let z = 1; z; }\n  label: for (;;) break label;\n  if (q) { var y = 1; }\n  return y;\n}',
    ['function f(list): total global written, use global, x global written, log global, q global'],
    ['total', 'x'],
  ],
  [
    'assigned names',
    'var v = 1;\nv = 2;\nlet w = 1;\nw.a = 1;\nundeclared = 3;\nfunction f() {}\nf = 1;\nconst c = 1, d = 2;\nlet [p1, p2] = [1, 2];\nfunction g() { later = 1; }',
    ['function f(): ', 'function g(): later global written'],
    ['v', 'w', 'undeclared', 'f', 'later'],
  ],
  [
    'parameters',
    'const k = 1;\nfunction f({ a = k, [key]: b } = def, ...rest) { return a + b + rest; }\nconst g = (x = y, y = 1) => x;',
    ['function f(: k top, key global, def global', '(x = y, y = 1) =>: '],
    [],
  ],
  [
    'top-level await and return',
    'const base = await 1;\nexports.f = () => base;\nreturn;',
    ['() =>: base top'],
    ['exports'],
  ],
  [
    'shadowing',
    'const x = 1;\nfunction f(x) { return x; }\nfunction g() { let x; return () => x; }\nfunction h() { return () => { x = 2; }; }',
    ['function f(x): ', 'function g(): ', '() =>: x around', 'function h(): x top written', '() =>: x top written'],
    ['x'],
  ],
  [
    'newer syntax',
    'const f = async (o) => { await o?.a?.(b); return `${t}` + tag`${u}` + [...s] + (o ?? n); };\nclass P { #p = 1; static has(o) { return #p in o && o.#p; } }\nfunction* gen() { yield* it; return new.target; }\nlet q = 1; function asg() { q ||= 2; q ??= 3; }',
    ['async (o) =>: b global, t global, tag global, u global, s global, n global', 'class P: ', '(o) (method): ', 'function* gen(): it global', 'function asg(): q top written'],
    ['q'],
  ],
  [
    'eval, with',
    'function f() { var x = 1; return eval("x"); }\nfunction g(o) { var y = 1; with (o) { return y + z; } }',
    ['function f(): eval global', 'function g(o): z global'],
    [],
  ],
  [
    'a default parameter names the outer x, not the body\'s',
    'const x = 1;\nfunction f(a = x) { const x = 2; return a; }',
    ['function f(a = x): x top'],
    [],
  ],
  [
    'Annex B beside a let of the same name',
    'function f() { let helper = 1; { function helper() {} } return () => helper; }\nfunction g() { { function h2() {} } return () => h2(); }',
    ['function f(): ', 'function helper(): ', '() =>: helper around', 'function g(): ', 'function h2(): ', '() =>: h2 around'],
    [],
  ],
  ])('%s', (_what, code, functions, assigned) => {
    expect(described(code)).toEqual({ functions, assigned });
  });

  test("the top level's declarations: functions, classes, and each declarator of one name", () => {
    const scopes = scriptScopes(parsed('function f() {}\nclass C {}\nconst a = 1, b = () => 2;\nlet [c] = [3];\nvar d;\nif (true) { function e() {} }'));
    expect([...scopes.declarations].map(([name, node]) => `${name} ${node.type}`)).toEqual(['f FunctionDeclaration', 'C ClassDeclaration', 'a VariableDeclarator', 'b VariableDeclarator', 'd VariableDeclarator']);
  });
});
