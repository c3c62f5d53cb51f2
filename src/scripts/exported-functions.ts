/**
 * Functions an httpyac script exports (`exports.sign = function (x) { … }`, `function f() {}
 * exports.f = f`), for the later scripts and templates of the run (`{{ sign(body) }}`): httpyac
 * keeps every export among the variables of the file's later requests (`setVariableInContext`),
 * functions as they are, with what they close over. Each reqflow script runs in a sandbox of its
 * own, and only text crosses between them, so a function is made again from its text in each
 * script that names it, together with what it uses from the script that made it: the functions
 * and classes that script declares at its top level (their text, in turn), and the values of its
 * other top-level names and of the variables it was given, as they stood when it ended (as JSON).
 *
 * Where the function made again could behave otherwise than httpyac's, it is not carried: a later
 * script or template that calls it fails naming the script that exported it — even if it catches
 * what the call throws (`refusalOf`: the host hears of the call) — and nothing of that request is
 * sent. That is a function that changes a name outside itself (a counter, a cache: it
 * would start afresh in each script), reads a name of code around it (a function inside another,
 * a block's `const`), a value that is not JSON (a `Date`, a `Map`), `this` or `arguments` of the
 * script, the script's `request`, `response`, `exports`, `module` or `require` (httpyac's are
 * those of the script that made it), a top-level name of a script that awaits at its top level
 * (reqflow runs such a script in a function, whose names it cannot read back), a name defined
 * nowhere, and a method, a getter, a bound or a built-in function.
 */
import type { AstNode, FunctionInfo, ScriptScopes } from './function-scopes.js';
import { FUNCTION_MARK } from './function-mark.js';

/** A function carried to later scripts: the code that makes it again, or why it cannot be; `where` the script that exported it. */
export type ExportedFunction = { code: string; where: string } | { unusable: string; where: string };

/** A function a script left in `exports`: its text (`Function.prototype.toString`), or the name it was carried in by. */
export interface ExportedText {
  name: string;
  text: string;
  carriedAs?: string;
}

export interface ScriptEnd {
  /** The script as written. */
  code: string;
  /** `file:line` of the script. */
  where: string;
  /** The names the script was given as variables. */
  variables: ReadonlySet<string>;
  /** The functions carried into it, by name. */
  carried: ReadonlyMap<string, ExportedFunction>;
  /** Evaluates an expression in the script's sandbox, after it ended: its value as JSON text. */
  evaluate(expression: string): Promise<{ json?: string; failure?: { message: string } }>;
}

/** Names whose value httpyac binds to the script that made the function. */
const SCRIPT_BOUND = new Set(['request', 'response', 'exports', 'module', 'require', '__dirname', '__filename', 'this', 'arguments']);

const MARK = new RegExp(`/\\*${FUNCTION_MARK.replace(/\$/g, '\\$')}(\\d+)\\*/`, 'g');

/** What a value read from the script's end is (run in its sandbox: `read`). */
type Read = { json: string } | { undefined: true } | { function: true } | { missing: true } | { other: true };

/** Reads names in the sandbox: each as JSON when it is JSON's (plain objects, arrays, text, finite numbers, booleans, null). */
function readExpression(names: readonly string[]): string {
  const reads = names.map((name) => `${JSON.stringify(name)}: read(() => ${name})`).join(', ');
  return `(() => {
  const plain = (v, depth) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ||
    (depth < 64 && typeof v === 'object' && (Array.isArray(v) ? v.every((x) => plain(x, depth + 1)) : [Object.prototype, null].includes(Object.getPrototypeOf(v)) && Object.values(v).every((x) => plain(x, depth + 1))));
  const read = (get) => {
    let v;
    try { v = get(); } catch { return { missing: true }; }
    if (v === undefined) return { undefined: true };
    if (typeof v === 'function') return { function: true };
    return plain(v, 0) ? { json: JSON.stringify(v) } : { other: true };
  };
  return { ${reads} };
})()`;
}

/** The reading's answer, when it has the shape `readExpression` gives it. */
function readsOf(json: string): Record<string, Read> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  for (const read of Object.values(parsed)) {
    if (typeof read !== 'object' || read === null) return undefined;
    if ('json' in read && typeof (read as { json: unknown }).json !== 'string') return undefined;
  }
  return parsed as Record<string, Read>;
}

/** What one function needs from the script's end, or why it cannot be carried. */
interface Plan {
  /** Top-level functions and classes, by name: their declaration or declarator. */
  functions: Map<string, AstNode>;
  /** Names whose value is read (JSON). */
  values: Set<string>;
  /** Functions carried into the script, by name. */
  carried: Set<string>;
  /** Globals that must exist in the script (built-ins, the API). */
  globals: Set<string>;
}

function planOf(info: FunctionInfo, scopes: ScriptScopes, end: ScriptEnd, awaits: boolean): Plan | string {
  const plan: Plan = { functions: new Map(), values: new Set(), carried: new Set(), globals: new Set() };
  const queue: FunctionInfo[] = [info];
  const seen = new Set<FunctionInfo>();
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (seen.has(next)) continue;
    seen.add(next);
    for (const [name, free] of next.free) {
      if (SCRIPT_BOUND.has(name)) return `it uses ${name} of the script that made it`;
      if (free.declared === 'around') return `it uses ${name} of the code around it`;
      if (free.written) return `it changes ${name}, which is outside it (it would start afresh in each script that uses it)`;
      if (free.declared === 'top') {
        if (awaits) return `it uses ${name} of a script that awaits at its top level, whose names reqflow cannot read back`;
        const declared = scopes.declarations.get(name);
        const made = declared === undefined ? undefined : declared.type === 'VariableDeclarator' ? (declared.init as AstNode | null) : declared;
        const functionLike = made !== undefined && made !== null && ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassDeclaration', 'ClassExpression'].includes(made.type);
        if (functionLike && !scopes.assigned.has(name)) {
          plan.functions.set(name, declared as AstNode);
          const inner = scopes.functions.get(made.start);
          if (inner) queue.push(inner);
        } else plan.values.add(name);
      } else if (end.carried.has(name)) plan.carried.add(name);
      else if (end.variables.has(name) || scopes.assigned.has(name)) plan.values.add(name);
      else plan.globals.add(name);
    }
  }
  return plan;
}

/** The code that makes the function again: what it uses, then the function itself. */
function codeOf(node: AstNode, plan: Plan, code: string, values: ReadonlyMap<string, string>, end: ScriptEnd, scopes: ScriptScopes): string {
  const lines: string[] = [];
  for (const name of plan.values) lines.push(`const ${name} = ${values.get(name) === undefined ? 'undefined' : `JSON.parse(${JSON.stringify(values.get(name))})`};`);
  for (const name of plan.carried) lines.push(`const ${name} = (${(end.carried.get(name) as { code: string }).code});`);
  const declared = [...plan.functions].sort((a, b) => a[1].start - b[1].start);
  for (const [name, declaration] of declared) {
    if (declaration.type === 'VariableDeclarator') lines.push(`const ${name} = (${code.slice((declaration.init as AstNode).start, (declaration.init as AstNode).end)});`);
    else lines.push(code.slice(declaration.start, declaration.end));
  }
  // The function itself: by its top-level name when it has one (its own name, as httpyac's has), else its text.
  const own = [...scopes.declarations].find(([, declaration]) => declaration === node || (declaration.type === 'VariableDeclarator' && declaration.init === node))?.[0];
  if (own !== undefined && !plan.functions.has(own)) {
    const declaration = scopes.declarations.get(own) as AstNode;
    lines.push(declaration.type === 'VariableDeclarator' ? `const ${own} = (${code.slice(node.start, node.end)});` : code.slice(node.start, node.end));
  }
  lines.push(`return ${own ?? `(${code.slice(node.start, node.end)})`};`);
  return `(() => {\n${lines.join('\n')}\n})()`;
}

/** The functions a script exported, each made into code for the later scripts (or refused, with why). */
export async function carryFunctions(exported: readonly ExportedText[], end: ScriptEnd): Promise<Map<string, ExportedFunction>> {
  const [{ parse }, { scriptScopes }] = await Promise.all([import('acorn'), import('./function-scopes.js')]);
  const out = new Map<string, ExportedFunction>();
  const unusable = (name: string, why: string): void => void out.set(name, { unusable: why, where: end.where });
  let scopes: ScriptScopes;
  let awaits = false;
  try {
    scopes = scriptScopes(parse(end.code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, ranges: true }) as unknown as AstNode);
  } catch {
    for (const { name } of exported) unusable(name, 'reqflow cannot read the script that made it');
    return out;
  }
  try {
    parse(end.code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true });
  } catch {
    awaits = true;
  }
  const plans = new Map<string, { node: AstNode; plan: Plan }>();
  for (const { name, text, carriedAs } of exported) {
    if (carriedAs !== undefined) {
      const carried = end.carried.get(carriedAs);
      if (carried) out.set(name, carried);
      else unusable(name, 'it is no function reqflow carried there');
      continue;
    }
    const starts = [...text.matchAll(MARK)].map((match) => Number(match[1]));
    const info = starts.length === 0 ? undefined : scopes.functions.get(Math.min(...starts));
    if (!info) unusable(name, 'it is not written in the script (a bound or built-in function)');
    else if (info.method) unusable(name, 'it is a method, a getter or a setter, which is no function by itself');
    else {
      const plan = planOf(info, scopes, end, awaits);
      if (typeof plan === 'string') unusable(name, plan);
      else plans.set(name, { node: info.node, plan });
    }
  }
  if (plans.size === 0) return out;
  const names = new Set<string>();
  for (const { plan } of plans.values()) for (const name of [...plan.values, ...plan.globals]) names.add(name);
  let reads: Record<string, Read> = {};
  if (names.size > 0) {
    const { json, failure } = await end.evaluate(readExpression([...names]));
    // The script ran first and may have changed what the reading uses (JSON.stringify): its answer is checked.
    const read = json === undefined ? undefined : readsOf(json);
    if (failure || read === undefined) {
      for (const name of plans.keys()) unusable(name, `reqflow could not read what it uses${failure ? ` (${failure.message})` : ''}`);
      return out;
    }
    reads = read;
  }
  for (const [name, { node, plan }] of plans) {
    const values = new Map<string, string>();
    let why: string | undefined;
    for (const value of plan.values) {
      const read = reads[value];
      if (read === undefined || 'missing' in read) why ??= `it uses ${value}, which is not defined where it is written`;
      else if ('function' in read) why ??= `it uses ${value}, a function reqflow cannot carry with it (a name assigned a function)`;
      else if ('other' in read) why ??= `it uses ${value}, a value that is not JSON (a Date, a Map, a class instance, a number that is not finite)`;
      else if ('json' in read) values.set(value, read.json);
    }
    for (const global of plan.globals) if (reads[global] === undefined || 'missing' in (reads[global] as Read)) why ??= `it uses ${global}, which is not defined where it is written`;
    if (why !== undefined) unusable(name, why);
    else out.set(name, { code: codeOf(node, plan, end.code, values, end, scopes), where: end.where });
  }
  return out;
}

/** The functions of the run a script or template names, by name (none when it names none). */
export function namedFunctions(names: readonly string[], functions: ReadonlyMap<string, ExportedFunction> | undefined): Map<string, ExportedFunction> {
  const named = new Map<string, ExportedFunction>();
  if (functions && functions.size > 0) for (const name of names) if (functions.has(name)) named.set(name, functions.get(name) as ExportedFunction);
  return named;
}

/** Why a function that is not carried cannot be called: the failure of the script or template that calls it. */
export function refusalOf(name: string, fn: ExportedFunction): string {
  return `${name}, which the script at ${fn.where} exports, cannot be used beyond that script: ${'unusable' in fn ? fn.unusable : 'it is carried'}`;
}

/**
 * The code that defines them in a sandbox with httpyac's API, before what names them runs (without
 * line marks: it is reqflow's). One that is not carried is a function that tells the host it was
 * called (`__reqflow$refused`) and throws: named only in a comment or a string, it refuses nothing.
 */
export function carryCode(named: ReadonlyMap<string, ExportedFunction>): string {
  const made = (name: string, fn: ExportedFunction): string =>
    'code' in fn ? fn.code : `function () { __reqflow$refused(${JSON.stringify(name)}); throw new Error(${JSON.stringify(refusalOf(name, fn))}); }`;
  return [...named].map(([name, fn]) => `__reqflow$carry(${JSON.stringify(name)}, ${made(name, fn)});`).join('\n');
}
