/**
 * Postman scripts to JetBrains handler scripts: the script is parsed with acorn and each use of
 * the `pm` API that has an equivalent is rewritten in place (`pm.environment.set` →
 * `client.global.set`, `pm.test` → `client.test`, `pm.expect(a).to.eql(b)` →
 * `client.assert(…)`, `pm.response.json()` → `response.body`). A statement that still uses an
 * API with no equivalent (`pm.sendRequest`, `require`) is kept as a `//` comment, and named in
 * a warning: a script never runs half of what it said silently.
 */
import { parse, type Node } from 'acorn';
import { ancestor, simple } from 'acorn-walk';

interface Replacement {
  start: number;
  end: number;
  text: () => string;
}

/**
 * Globals of Postman's sandbox that reqflow's has not — its legacy ones too (`tests`,
 * `responseCode`, `environment`, `data` …), unless the script declares a name of its own.
 */
const UNAVAILABLE = new Set(['pm', 'postman', 'require', 'CryptoJS', 'xml2Json', 'tv4', 'cheerio', '_', 'tests', 'responseBody', 'responseCode', 'responseHeaders', 'responseTime', 'responseCookies', 'environment', 'globals', 'data', 'iteration']);

// The `pm` API and the legacy `postman.*Variable` calls of the collections Postman still runs.
const SET = /^(pm\.(environment|collectionVariables|globals|variables)\.set|postman\.set(Environment|Global)Variable)$/;
const GET = /^(pm\.(globals|variables)\.get|postman\.getGlobalVariable)$/;
const ENV_GET = /^(pm\.(environment|collectionVariables)\.get|postman\.getEnvironmentVariable)$/;
const UNSET = /^(pm\.(environment|collectionVariables|globals|variables)\.unset|postman\.clear(Environment|Global)Variable)$/;

type AnyNode = Node & Record<string, unknown>;

/** `pm.response.to.have.status` for a chain of plain member accesses, else undefined. */
function dotted(node: AnyNode): string | undefined {
  if (node.type === 'Identifier') return node.name as string;
  if (node.type !== 'MemberExpression' || node.computed) return undefined;
  const object = dotted(node.object as AnyNode);
  return object === undefined ? undefined : `${object}.${(node.property as AnyNode).name as string}`;
}

/** `pm.expect(x).to.be.equal(y)` → subject x, words [to, be, equal]. */
function expectChain(node: AnyNode): { subject: AnyNode; words: string[] } | undefined {
  const words: string[] = [];
  let current = node;
  while (current.type === 'MemberExpression' && !current.computed) {
    words.unshift((current.property as AnyNode).name as string);
    current = current.object as AnyNode;
  }
  if (current.type !== 'CallExpression' || dotted(current.callee as AnyNode) !== 'pm.expect') return undefined;
  const subject = (current.arguments as AnyNode[])[0];
  return subject ? { subject, words } : undefined;
}

const API_NAMES = ['client', 'response', 'request'];

/** The names the script binds itself: a variable, a function or a parameter. */
function declaredNames(program: Node): Set<string> {
  const names = new Set<string>();
  const add = (pattern: AnyNode | null | undefined): void => {
    if (pattern?.type === 'Identifier') names.add(pattern.name as string);
  };
  simple(program, {
    VariableDeclarator: (node) => add((node as unknown as AnyNode).id as AnyNode),
    Function: (node) => {
      const fn = node as unknown as AnyNode;
      add(fn.id as AnyNode | null);
      for (const param of (fn.params as AnyNode[]) ?? []) add(param);
    },
  });
  return names;
}

export class ScriptTranslator {
  private readonly replacements: Replacement[] = [];
  private source = '';
  /** The names the script declares itself (`var response = pm.response.json()`, `var data = …`). */
  private declared = new Set<string>();
  /** Of them, the JetBrains API's. */
  private shadowed = new Set<string>();

  /** `response`, or `globalThis.response` where the script's own `response` hides the API's. */
  private api(name: 'client' | 'response' | 'request'): string {
    return this.shadowed.has(name) ? `globalThis.${name}` : name;
  }

  /** The source between `start` and `end`, with the replacements inside it applied. */
  private slice(start: number, end: number): string {
    const inside = this.replacements.filter((r) => r.start >= start && r.end <= end);
    // Of two replacements of one range, the first made wins.
    const covers = (o: Replacement, r: Replacement): boolean => o !== r && o.start <= r.start && o.end >= r.end && (o.start < r.start || o.end > r.end || inside.indexOf(o) < inside.indexOf(r));
    const outer = inside.filter((r) => !inside.some((o) => covers(o, r))).sort((a, b) => a.start - b.start);
    let text = '';
    let at = start;
    for (const r of outer) {
      text += this.source.slice(at, r.start) + r.text();
      at = r.end;
    }
    return text + this.source.slice(at, end);
  }

  private code(node: AnyNode): string {
    return this.slice(node.start, node.end);
  }

  private replace(node: AnyNode, text: () => string): void {
    this.replacements.push({ start: node.start, end: node.end, text });
  }

  /** An assertion: `client.assert(condition, "expected …")`. */
  private assertion(node: AnyNode, condition: () => string): void {
    const message = JSON.stringify(`expected ${this.source.slice(node.start, node.end).replace(/\s+/g, ' ')}`);
    this.replace(node, () => `${this.api('client')}.assert(${condition()}, ${message})`);
  }

  /** `pm.expect(x).to.…` and `pm.response.to.…`; false when the chain is not one reqflow knows. */
  private chain(node: AnyNode, call: AnyNode | undefined): boolean {
    const args = (call?.arguments as AnyNode[] | undefined) ?? [];
    const arg = (i: number): string => (args[i] ? `(${this.code(args[i] as AnyNode)})` : 'undefined');
    const target = (call ? call.callee : node) as AnyNode;
    const path = dotted(target);
    if (path === 'pm.response.to.have.status' && args.length === 1) return this.assertion(call as AnyNode, () => `${this.api('response')}.status === ${arg(0)}`), true;
    if (path === 'pm.response.to.be.ok' && !call) return this.assertion(node, () => `${this.api('response')}.status >= 200 && ${this.api('response')}.status < 300`), true;
    const chain = expectChain(target);
    if (!chain) return false;
    const negated = chain.words.includes('not');
    const words = chain.words.filter((w) => !['to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'at', 'of', 'same', 'not', 'deep'].includes(w));
    const x = (): string => `(${this.code(chain.subject)})`;
    const deep = chain.words.includes('deep') || words[0] === 'eql';
    const conditions: Record<string, () => string> = {
      equal: () => (deep ? `JSON.stringify${x()} === JSON.stringify(${arg(0)})` : `${x()} === ${arg(0)}`),
      equals: () => `${x()} === ${arg(0)}`,
      eq: () => `${x()} === ${arg(0)}`,
      eql: () => `JSON.stringify${x()} === JSON.stringify(${arg(0)})`,
      include: () => `${x()}.includes(${arg(0)})`,
      contain: () => `${x()}.includes(${arg(0)})`,
      above: () => `${x()} > ${arg(0)}`,
      below: () => `${x()} < ${arg(0)}`,
      least: () => `${x()} >= ${arg(0)}`,
      most: () => `${x()} <= ${arg(0)}`,
      property: () => `${x()} != null && ${arg(0)} in Object${x()}`,
      lengthOf: () => `${x()}.length === ${arg(0)}`,
      oneOf: () => `${arg(0)}.includes${x()}`,
      true: () => `${x()} === true`,
      false: () => `${x()} === false`,
      null: () => `${x()} === null`,
      undefined: () => `${x()} === undefined`,
      ok: () => `!!${x()}`,
      exist: () => `${x()} != null`,
      empty: () => `Object.keys(Object${x()}).length === 0`,
    };
    const word = words[0];
    const condition = word !== undefined && words.length === 1 ? conditions[word] : undefined;
    // Words that take an argument are calls; the others (`.to.be.true`) are not.
    if (!condition || (call !== undefined) !== !['true', 'false', 'null', 'undefined', 'ok', 'exist', 'empty'].includes(word as string)) return false;
    this.assertion(call ?? node, negated ? () => `!(${condition()})` : condition);
    return true;
  }

  private visitCall(node: AnyNode): void {
    const callee = node.callee as AnyNode;
    const path = dotted(callee);
    if (path !== undefined && SET.test(path)) this.replace(callee, () => `${this.api('client')}.global.set`);
    else if (path !== undefined && UNSET.test(path)) this.replace(callee, () => `${this.api('client')}.global.clear`);
    else if (path !== undefined && (ENV_GET.test(path) || GET.test(path))) this.replace(callee, () => this.lookup());
    else if (path === 'pm.test') this.replace(callee, () => `${this.api('client')}.test`);
    else if (path === 'pm.response.json' && (node.arguments as unknown[]).length === 0) this.replace(node, () => `${this.api('response')}.body`);
    else if (path === 'pm.response.text') this.replace(node, () => `(typeof ${this.api('response')}.body === "string" ? ${this.api('response')}.body : JSON.stringify(${this.api('response')}.body))`);
    else if (path === 'pm.response.headers.get') this.replace(callee, () => `${this.api('response')}.headers.valueOf`);
    else if (path === 'console.log' || path === 'console.info' || path === 'console.warn' || path === 'console.error') this.replace(callee, () => `${this.api('client')}.log`);
    else this.chain(node, node);
  }

  private visitMember(node: AnyNode, ancestors: AnyNode[]): void {
    const parent = ancestors[ancestors.length - 2];
    // Only the whole chain: `pm.response.code`, not its `pm.response` part.
    if (parent?.type === 'MemberExpression' && parent.object === node) return;
    if (parent?.type === 'CallExpression' && parent.callee === node) return;
    const path = dotted(node);
    const legacy = path?.split('.');
    if (path === 'pm.response.code' || (path === 'responseCode.code' && !this.declared.has('responseCode'))) this.replace(node, () => `${this.api('response')}.status`);
    else if (legacy?.length === 2 && (legacy[0] === 'environment' || legacy[0] === 'globals') && !this.declared.has(legacy[0]) && !(parent?.type === 'AssignmentExpression' && parent.left === node)) this.replace(node, () => `${this.lookup()}(${JSON.stringify(legacy[1])})`);
    else if (path === 'pm.response.responseTime') this.replace(node, () => 'undefined');
    else this.chain(node, undefined);
  }

  /**
   * A variable read: what a script set in this run (Postman's current value; its `set` is
   * `client.global.set` here), else the environment file's (the initial value), as Postman
   * reads `pm.environment.get`, `pm.variables.get` and the legacy `environment.name`.
   */
  private lookup(): string {
    return `((name) => ${this.api('client')}.global.get(name) ?? ${this.api('request')}.environment.get(name))`;
  }

  /** Postman's legacy `tests["name"] = condition;`: a test of that name asserting it. */
  private visitAssignment(node: AnyNode): void {
    const left = node.left as AnyNode;
    if (node.operator !== '=' || left.type !== 'MemberExpression' || (left.object as AnyNode).type !== 'Identifier' || (left.object as AnyNode).name !== 'tests' || this.declared.has('tests')) return;
    const property = left.property as AnyNode;
    const name = (): string => (left.computed ? this.code(property) : JSON.stringify(property.name));
    const message = JSON.stringify(`expected ${this.source.slice(node.start, node.end).replace(/\s+/g, ' ')}`);
    this.replace(node, () => `${this.api('client')}.test(${name()}, function () { ${this.api('client')}.assert(${this.code(node.right as AnyNode)}, ${message}); })`);
  }

  /** Postman's legacy `responseBody`: the response's text. */
  private visitIdentifier(node: AnyNode, ancestors: AnyNode[]): void {
    const parent = ancestors[ancestors.length - 2];
    if (node.name !== 'responseBody' || this.declared.has('responseBody') || (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed)) return;
    this.replace(node, () => `(typeof ${this.api('response')}.body === "string" ? ${this.api('response')}.body : JSON.stringify(${this.api('response')}.body))`);
  }

  /** The script as a JetBrains handler, and the Postman APIs it kept as comments. */
  translate(lines: readonly string[]): { script: string; unmapped: string[] } {
    this.source = lines.join('\n');
    this.replacements.length = 0;
    let program: Node;
    try {
      program = parse(this.source, { ecmaVersion: 'latest', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
    } catch (error) {
      return { script: lines.map((line) => `// ${line}`.trimEnd()).join('\n'), unmapped: [`the whole script (${(error as Error).message})`] };
    }
    this.declared = declaredNames(program);
    this.shadowed = new Set(API_NAMES.filter((name) => this.declared.has(name)));
    ancestor(program, {
      CallExpression: (node) => this.visitCall(node as unknown as AnyNode),
      MemberExpression: (node, _state, ancestors) => this.visitMember(node as unknown as AnyNode, ancestors as unknown as AnyNode[]),
      AssignmentExpression: (node) => this.visitAssignment(node as unknown as AnyNode),
      Identifier: (node, _state, ancestors) => this.visitIdentifier(node as unknown as AnyNode, ancestors as unknown as AnyNode[]),
    });
    const unmapped = new Set<string>();
    const commented: Replacement[] = [];
    ancestor(program, {
      Identifier: (node, _state, ancestors) => {
        const id = node as unknown as AnyNode;
        const parent = ancestors[ancestors.length - 2] as AnyNode | undefined;
        if (!UNAVAILABLE.has(id.name as string) || this.declared.has(id.name as string)) return;
        // A property's name (`x.data`, `{ data: 1 }`) is not the global.
        if ((parent?.type === 'MemberExpression' && parent.property === id && !parent.computed) || (parent?.type === 'Property' && parent.key === id && !parent.computed && !parent.shorthand)) return;
        if (this.replacements.some((r) => r.start <= id.start && r.end >= id.end)) return;
        const statement = [...ancestors].reverse().find((a) => /Statement$|Declaration$/.test(a.type) && a.type !== 'BlockStatement') as AnyNode | undefined;
        if (!statement) return;
        // The API's name: the longest `a.b.c` chain that starts here.
        let top: AnyNode = id;
        for (let i = ancestors.length - 2; i >= 0; i--) {
          const above = ancestors[i] as AnyNode;
          if (above.type !== 'MemberExpression' || above.object !== top || above.computed) break;
          top = above;
        }
        unmapped.add(dotted(top) ?? (id.name as string));
        if (!commented.some((c) => c.start <= statement.start && c.end >= statement.end)) {
          const original = this.source.slice(statement.start, statement.end);
          commented.push({ start: statement.start, end: statement.end, text: () => `\n${original.split('\n').map((line) => `// ${line}`.trimEnd()).join('\n')}\n` });
        }
      },
    });
    this.replacements.push(...commented);
    const script = this.slice(0, this.source.length).replace(/^\n+|\n+$/g, '');
    // A top-level `var response` would be the sandbox's own (read-only) global: in a function it is the script's.
    return { script: this.shadowed.size > 0 ? `(function () {\n${script}\n})();` : script, unmapped: [...unmapped] };
  }
}
