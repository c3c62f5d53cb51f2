import { UsageError, VariableError } from './errors/index.js';
import { dotenvValues } from './environment-search.js';
import { MAX_EXPANSION_MIB, MAX_VARIABLE_NESTING } from './input-limits.js';
import type { UnusableValue } from './environment-values.js';
import { isExtracted } from './extracted-values.js';
import { isSecretName, type SecretRegistry } from './mask.js';
import type { Profile, ProfileVariable, Session, VariableResolver } from './model.js';
import type { Prompter } from './prompt.js';
import { isShellValue, shellCommandOf, shellQuote } from './shell.js';
import { enclosingTemplate, nestedTemplateError, outerExpression } from './template-nesting.js';

/**
 * `{{ expr }}`: a name, `env.NAME`, `$dynamic`, `helper arg` (urlencode, base64), or httpyac's
 * JavaScript. Single braces may stand inside (`{{ ({ a: 1 }) }}`, `` {{ `${x}` }} ``), `{{` and `}}`
 * may not: it ends at the first `}}`, as httpyac's `HandlebarsSingleLine` (`/\{{2}\s*(.+?)\s*\}{2}/`) does.
 */
const TEMPLATE = /\{\{\s*((?!\{)(?:[^{}]|\{(?!\{)|\}(?!\}))*?)\s*\}\}/g;

/** A literal of JavaScript's (`{{ null }}`, `{{ 42 }}`): httpyac's JavaScript where no variable has that name. */
export const JS_LITERAL = /^(?:null|true|false|undefined|NaN|Infinity|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|"[^"\\]*"|'[^'\\]*')$/;

/**
 * What reqflow reads as a name or a path (`user`, `boss-api`, `base.url`, `login.response.body.$.id`,
 * `x.response.headers['Date']`): no space, call, operator or literal of JavaScript's. Anything else
 * that no form claims is httpyac's JavaScript (`javascript` in {@link ResolverOptions}).
 */
export const NAME_OR_PATH = /^[^\s()+*/%?:!=<>&|,`{};^~]+$/;

/** The expressions of a text's templates, in order: `{{ user }}` → `user`. */
export function templateExpressions(text: string): string[] {
  return [...text.matchAll(TEMPLATE)].map((match) => match[1] as string);
}

/** What a text says around its templates. */
export function outsideTemplates(text: string): string {
  return text.replace(TEMPLATE, '');
}

/** The session data entry of script globals (`client.global.set`, `$global`: `src/core/script-globals.ts`). */
export const SCRIPT_GLOBALS = 'reqflow.globals';

type Source = 'cli' | 'run' | 'file' | 'session' | 'environment' | 'profile' | 'global';

/** httpyac's prompts: `$input label`, `$password label`, each with an optional `$value: default`. */
const HTTPYAC_INPUT = /^\$(input|password|input-askonce)\s+(.+?)(?:\s+\$value:\s*(.*?))?\s*$/s;

/**
 * What httpyac's JavaScript in a template came to: its text, or why there is none to send
 * (`syntax`: it does not parse).
 */
export type JavascriptResult = { text: string } | { failure: string; syntax?: boolean };

export interface ResolverOptions {
  cliVariables: Record<string, string>;
  /** `@name = value` lines of the request file above the request (they may hold `{{…}}`, never shell commands). */
  fileVariables?: Readonly<Record<string, string>>;
  /**
   * Values this run produced: a script's `request.variables`/`client.global`, `# @capture`.
   * Taken literally (they may come from a response), after `-e` and before everything else.
   */
  runVariable?: (name: string) => string | undefined;
  /**
   * Script globals an earlier file or run set (`client.global.set`, `$global`; src/core/script-globals.ts):
   * below the environment, the file and the profile (JetBrains: environment over globals), above `.env` and extracted tokens.
   */
  globals?: { get(name: string): string | undefined; entries(): Array<[string, string]> } | undefined;
  /** `{{login.response.body.$.id}}`: the value, or undefined when the expression names no request. */
  reference?: (expression: string) => Promise<string> | undefined;
  /**
   * httpyac's JavaScript in a template (`{{ this.name ?? "World" }}`): its text, evaluated in the
   * script sandbox with the variables it names (`read`). Absent: such a template is refused as before.
   */
  javascript?: (expression: string, read: (names: readonly string[]) => Promise<Record<string, string>>) => Promise<JavascriptResult>;
  /** `# @loop`: this pass's `$index` and item, literally, before every other source. */
  loopVariables?: Readonly<Record<string, string>> | undefined;
  /** `--env NAME`: the environment's values (they may hold `{{…}}`, never shell commands). */
  environmentVariables?: Readonly<Record<string, string>>;
  /** The environment picked (`--env NAME`), for messages and `{{$dotenv}}`'s `.env.NAME`; none: the values are `$shared` ones. */
  environmentName?: string;
  /** The environment's objects, arrays and `null`s that have no text form: exit 2 where a request uses one. */
  environmentUnusable?: Readonly<Record<string, UnusableValue>>;
  /** For messages: `file:line` of the request being resolved. */
  requestLine?: string;
  /** Before a profile value's `$(…)` runs: throws when it may not (docs/trust.md). Unset: it runs. */
  profileProgram?: (name: string) => Promise<void>;
  /**
   * A file variable the request uses above its definition: the file's last definition of it, as the
   * `.http` tools read file variables file-wide (src/plugins/format-http/later-variables.ts). Asked
   * only for a name nothing else defines.
   */
  laterFileVariable?: (name: string) => Promise<string | undefined>;
  /** For messages: `file:line` where `{{expression}}` is written for this request, when it can be told (an error's path only). */
  writtenAt?: (expression: string) => Promise<string | undefined>;
  /** `# @prompt name [description]`: asked for (once per run) unless `-e` sets them. */
  prompts?: ReadonlyArray<{ name: string; description?: string; secret?: boolean }>;
  session: Session;
  profile: Profile;
  prompter: Prompter;
  /** Answers to interactive prompts, shared by the requests of one run (ask once per run). */
  promptCache: Map<string, string>;
  env?: NodeJS.ProcessEnv;
  secrets?: SecretRegistry;
  signal?: AbortSignal;
  /** For messages: the request being resolved. */
  requestName?: string;
  profilesPath?: string;
  /** The request file's folder (`{{$dotenv NAME}}` reads the `.env` beside it). */
  baseDir?: string;
  /** Time-out of `$(...)` values (DESIGN.md: 10 s). */
  shellTimeoutMs?: number;
  /**
   * Preview mode (the TUI's request pane): nothing runs and nothing is asked. Shell values and
   * prompts show as `‹name›` and are listed in `deferred`; a template that cannot be resolved
   * stays as written and is listed in `unresolved`.
   */
  preview?: { deferred: Set<string>; unresolved: Set<string> };
}

/** Lone UTF-16 surrogates (a response may carry `"\ud800"`) become U+FFFD, as UTF-8 encoding does. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const HELPERS: Record<string, (value: string) => string> = {
  urlencode: (value) => encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD')),
  base64: (value) => Buffer.from(value, 'utf8').toString('base64'),
};


/**
 * Resolves variables for one request. Lookup order: `-e`, values of this run (scripts,
 * captures), file variables, session, `--env` environment, profile (see `sourceOf`); then
 * references to other requests (`{{login.response.body.$.id}}`).
 * Shell values run once per resolver (one resolver per request); session values are taken
 * literally, never expanded or run (they may come from a response).
 */
export class TemplateResolver implements VariableResolver {
  private readonly cache = new Map<string, Promise<string>>();
  /** The `.env` files' values, read by the first name nothing else defines. */
  private dotenv?: Promise<Record<string, string>>;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: ResolverOptions) {
    this.env = options.env ?? process.env;
  }

  sourceOf(name: string): Source | undefined {
    if (Object.hasOwn(this.options.cliVariables, name)) return 'cli';
    if (this.options.runVariable?.(name) !== undefined) return 'run';
    if (this.options.fileVariables && Object.hasOwn(this.options.fileVariables, name)) return 'file';
    const inSession = this.options.session.get(name) !== undefined;
    // A token reqflow extracted by itself never shadows what the user defined.
    if (inSession && !isExtracted(this.options.session, name)) return 'session';
    if (this.inEnvironment(name)) return 'environment';
    if (Object.hasOwn(this.options.profile.variables, name)) return 'profile';
    if (this.options.globals?.get(name) !== undefined) return 'global';
    return inSession ? 'session' : undefined;
  }

  private inEnvironment(name: string): boolean {
    const { environmentVariables, environmentUnusable } = this.options;
    return (environmentVariables !== undefined && Object.hasOwn(environmentVariables, name)) || (environmentUnusable !== undefined && Object.hasOwn(environmentUnusable, name));
  }

  /** The environment's value of `name`; an object or array there is exit 2 naming it and this request. */
  private environmentValue(name: string): string {
    const { environmentVariables, environmentUnusable } = this.options;
    if (environmentVariables && Object.hasOwn(environmentVariables, name)) return environmentVariables[name] as string;
    const unusable = environmentUnusable?.[name];
    if (unusable) {
      const parts = Object.keys(environmentVariables ?? {}).filter((other) => other.startsWith(`${name}.`) || other.startsWith(`${name}[`));
      const where = this.options.requestLine ? `${this.options.requestLine}: ` : '';
      const Failure = unusable.cycle ? VariableError : UsageError; // a cycle is exit 3, as the resolver's own
      throw new Failure(`${where}{{${name}}}${this.where()} is ${unusable.what} (${unusable.where} in ${unusable.file})${unusable.hint ? '' : ': it has no text form to send'}`, {
        hint: unusable.hint ?? (parts.length > 0 ? `use one of its values, such as {{${parts[0]}}}` : `give it a text value, or set it with -e ${name}=value`),
      });
    }
    return '';
  }

  has(name: string): boolean {
    return this.sourceOf(name) !== undefined;
  }

  get(name: string): Promise<string> {
    return this.resolveName(name, []);
  }

  expand(text: string): Promise<string> {
    return this.expandIn(text, [], false);
  }

  private async expandIn(text: string, stack: string[], forShell: boolean): Promise<string> {
    if (!text.includes('{{')) return text;
    // Sequential on purpose: shell values run in dependency order and prompts come one at a time.
    let result = '';
    let last = 0;
    const longest = text.length + MAX_EXPANSION_MIB * 1024 * 1024;
    for (const match of text.matchAll(TEMPLATE)) {
      const enclosing = enclosingTemplate(text, match);
      if (enclosing !== undefined) throw nestedTemplateError(enclosing, this.where(), await this.options.writtenAt?.(outerExpression(text, match, enclosing)));
      result += text.slice(last, match.index);
      const value = await this.evaluateOrPreview(match, stack);
      result += forShell ? shellQuote(value) : value;
      if (result.length > longest) throw (await import('./expansion-error.js')).expansionTooLong(stack, MAX_EXPANSION_MIB, this.where());
      last = (match.index ?? 0) + match[0].length;
    }
    return result + text.slice(last);
  }

  /** In preview mode, a template that fails stays as written (each on its own: the others still resolve). */
  private async evaluateOrPreview(match: RegExpMatchArray, stack: string[]): Promise<string> {
    const preview = this.options.preview;
    if (!preview) return this.evaluate(match[1] ?? '', stack);
    try {
      return await this.evaluate(match[1] ?? '', stack);
    } catch {
      preview.unresolved.add((match[1] ?? '').trim());
      return match[0];
    }
  }

  private preview(): boolean {
    return this.options.preview !== undefined;
  }

  /** Preview mode: a value that would run or ask shows as `‹name›`. */
  private deferred(name: string): string | undefined {
    if (!this.options.preview) return undefined;
    this.options.preview.deferred.add(name);
    return `‹${name}›`;
  }

  /** `written`: the whole template's expression as the file writes it (`urlencode this.x` for its argument `this.x`), to name where it is written. */
  private async evaluate(expression: string, stack: string[], written = expression): Promise<string> {
    const loop = this.options.loopVariables;
    if (loop && Object.hasOwn(loop, expression)) return loop[expression] as string;
    // `{{env.NAME}}`, and httpyac's JavaScript `{{process.env.NAME}}`: the process environment's NAME.
    const envName = expression.startsWith('env.') ? expression.slice(4) : expression.startsWith('process.env.') ? expression.slice(12) : undefined;
    if (envName !== undefined && NAME_OR_PATH.test(expression)) {
      // Own names only: `constructor` or `__proto__` is an unset variable, not the object's machinery sent as text.
      const value = Object.hasOwn(this.env, envName) ? this.env[envName] : undefined;
      if (value === undefined) {
        throw new VariableError(`environment variable ${envName} is not set${this.where()}`, { hint: `export ${envName}=... before running, or use a profile variable instead` });
      }
      return value;
    }
    // httpyac's `{{$global.name}}`: a value its scripts put in `$global` (a run variable here).
    if (expression.startsWith('$global.') && NAME_OR_PATH.test(expression)) return this.resolveName(expression.slice(8).trim(), stack, written);
    if (expression.startsWith('$global') && !NAME_OR_PATH.test(expression)) return this.javascript(expression, -1, stack, written);
    const input = HTTPYAC_INPUT.exec(expression);
    if (input) return this.input(input[2] as string, input[3], input[1] === 'password');
    if (expression.startsWith('$')) {
      // System and dynamic variables ({{$guid}}, {{$datetime iso8601 1 d}}, {{$dotenv X}}, ...),
      // imported only by a request that uses one (the plain path's bundle stays small).
      const { systemVariable } = await import('./system-variables.js');
      // `%name` (VS Code: `{{$dotenv %name}}`): the selected environment's value of name, else name itself
      // (`resolveSettingsEnvironmentVariable`), never a file variable: `@X = {{$dotenv %X}}` is VS Code's idiom, no cycle.
      const value = await systemVariable(expression, { env: this.env, ...(this.options.baseDir ? { baseDir: this.options.baseDir } : {}), ...(this.options.environmentName !== undefined ? { environmentName: this.options.environmentName } : {}), where: this.where() }, async (name) => (this.inEnvironment(name) ? this.environmentValue(name) : name)).catch(async (error: unknown) => {
        throw await this.placed(error, written);
      });
      if (isSecretName(expression)) this.options.secrets?.add(value);
      return value;
    }
    // {{%name}}: the value of name, percent-encoded (VS Code).
    if (expression.startsWith('%')) return encodeURIComponent((await this.resolveName(expression.slice(1).trim(), stack, written)).replace(LONE_SURROGATE, '\uFFFD'));
    const space = expression.search(/\s/);
    const helper = space > 0 ? HELPERS[expression.slice(0, space)] : undefined;
    if (helper) {
      const argument = expression.slice(space + 1).trim();
      const quoted = /^"(.*)"$/s.exec(argument);
      return helper(quoted ? (quoted[1] ?? '') : await this.evaluate(argument, stack, written));
    }
    if (expression === '') throw new VariableError(`empty template {{}}${this.where()}`);
    if (!NAME_OR_PATH.test(expression) && !this.has(expression)) {
      // A reference claims its own paths first (`users.response.body.//user[2]/name`, JSONPath filters).
      const reference = this.preview() ? undefined : this.options.reference?.(expression);
      return reference ?? this.javascript(expression, space, stack, written);
    }
    if (!this.has(expression)) {
      const reference = this.preview() ? undefined : this.options.reference?.(expression);
      if (reference) return reference;
      // `token.length`, `this.name`: a path into a variable that is text is httpyac's JavaScript (an environment's object keeps its dotted names).
      const head = /^([A-Za-z_$][\w$]*)[.[]/.exec(expression)?.[1];
      if (JS_LITERAL.test(expression) || head === 'this' || (head !== undefined && this.has(head) && !Object.hasOwn(this.options.environmentUnusable ?? {}, head))) return this.javascript(expression, -1, stack, written);
    }
    return this.resolveName(expression, stack, written);
  }

  /** httpyac's JavaScript; without an evaluator (or not JavaScript: `upper $guid`), a word before a space is an unknown helper, as before. */
  private async javascript(expression: string, space: number, stack: string[], written: string): Promise<string> {
    const helperShaped = space > 0 && /^[A-Za-z_]\w*$/.test(expression.slice(0, space));
    const unknownHelper = (): VariableError =>
      new VariableError(`unknown template helper "${expression.slice(0, space)}"${this.where()}`, { hint: `available helpers: ${Object.keys(HELPERS).join(', ')}` });
    const evaluate = this.options.javascript;
    if (!evaluate) throw helperShaped ? unknownHelper() : new VariableError(`{{${expression}}} is not a variable${this.where()}`);
    const placeholder = this.deferred(expression);
    if (placeholder !== undefined) return placeholder;
    const read = async (names: readonly string[]): Promise<Record<string, string>> => {
      const values = Object.create(null) as Record<string, string>;
      for (const name of names) if (this.has(name)) values[name] = await this.resolveName(name, stack);
      return values;
    };
    const result = await evaluate(expression, read);
    if ('text' in result) return result.text;
    // A word, a space and a value (`upper $guid`) that is no JavaScript: a helper reqflow does not have.
    if (result.syntax && helperShaped) throw unknownHelper();
    // Where the whole template is written (a helper's argument is found by its helper), as an unknown variable is named.
    const at = (await this.options.writtenAt?.(written)) ?? this.options.requestLine;
    const where = at ? `${at}: ` : '';
    throw new VariableError(`${where}{{ ${written} }}${this.where()}: ${result.failure}`, {
      hint: result.syntax ? 'httpyac evaluates a template that is not a variable as a JavaScript expression; this one does not parse' : 'nothing was sent',
    });
  }

  private resolveName(name: string, stack: string[], written?: string): Promise<string> {
    if (stack.includes(name)) {
      const cycle = new VariableError(`variable cycle: ${[...stack, name].join(' → ')}${this.where()}`, { hint: 'a variable cannot refer to itself, directly or through others' });
      return this.placed(cycle, stack[0] ?? name).then((error) => Promise.reject(error));
    }
    const cached = this.cache.get(name);
    if (cached) return cached;
    // Before the call stack runs out (past a thousand levels: exit 70), and before each level copies the stack.
    if (stack.length >= MAX_VARIABLE_NESTING) {
      return import('./expansion-error.js')
        .then(({ nestedTooDeep }) => this.placed(nestedTooDeep([...stack, name], MAX_VARIABLE_NESTING, this.where()), stack[0] ?? name))
        .then((error) => Promise.reject(error));
    }
    const pending = this.compute(name, [...stack, name], written);
    this.cache.set(name, pending);
    return pending;
  }

  private async compute(name: string, stack: string[], written?: string): Promise<string> {
    const source = this.sourceOf(name);
    const prompt = source === 'cli' ? undefined : this.options.prompts?.find((p) => p.name === name);
    // kulala and rest.nvim: a `.env` value, below every other source — but the user's own, so above a token reqflow extracted by itself.
    const fromDotenv = !prompt && (source === undefined || (source === 'session' && isExtracted(this.options.session, name))) ? await this.dotenvValue(name) : undefined;
    let value: string;
    let later: string | undefined;
    if (prompt) value = this.deferred(name) ?? (await this.fromProfile(name, { value: '', interactive: true, ...(prompt.secret === true ? { secret: true } : {}) }, stack));
    else if (fromDotenv !== undefined) value = await this.expandIn(fromDotenv, stack, false);
    else if (source === 'cli') value = await this.fromTrusted(name, this.options.cliVariables[name] ?? '', stack);
    else if (source === 'file') value = await this.expandIn(this.options.fileVariables?.[name] ?? '', stack, false);
    else if (source === 'environment') value = await this.expandIn(this.environmentValue(name), stack, false);
    else if (source === 'session') value = this.options.session.get(name) ?? '';
    else if (source === 'run') value = this.options.runVariable?.(name) ?? '';
    else if (source === 'global') value = this.options.globals?.get(name) ?? '';
    else if (source === 'profile') value = await this.fromProfile(name, this.options.profile.variables[name] as ProfileVariable, stack);
    else if ((later = await this.options.laterFileVariable?.(name)) !== undefined) value = await this.expandIn(later, stack, false);
    else {
      // Error path only: the hint's search (other environments, names close to it) loads here.
      const { unknownVariable } = await import('./unknown-variable.js');
      // Named where it is written in the request file; one from elsewhere (an environment, a profile) is named by the request.
      // `{{name}}` itself, else the template that holds it (`{{urlencode name}}`, `{{%name}}`).
      const at = (await this.options.writtenAt?.(name)) ?? (written !== undefined && written !== name ? await this.options.writtenAt?.(written) : undefined);
      throw await unknownVariable(name, this.options, this.where(), at);
    }
    if (isSecretName(name)) this.options.secrets?.add(value);
    return value;
  }

  private async dotenvValue(name: string): Promise<string | undefined> {
    if (this.options.baseDir === undefined) return undefined;
    this.dotenv ??= dotenvValues(this.options.baseDir);
    const values = await this.dotenv;
    return Object.hasOwn(values, name) ? values[name] : undefined;
  }

  /**
   * Profile and `-e` values may reference other variables and may be shell commands. A profile's
   * command runs only where `profileProgram` allows it (a profiles file a project brings: trust).
   */
  private async fromTrusted(name: string, raw: string, stack: string[], fromProfile = false): Promise<string> {
    if (isShellValue(raw)) {
      const placeholder = this.deferred(name);
      if (placeholder !== undefined) return placeholder;
      if (fromProfile) await this.options.profileProgram?.(name);
      const command = await this.expandIn(shellCommandOf(raw), stack, true);
      const { runShellValue } = await import('./shell-run.js');
      return runShellValue(name, command, {
        ...(this.options.signal ? { signal: this.options.signal } : {}),
        ...(this.options.shellTimeoutMs !== undefined ? { timeoutMs: this.options.shellTimeoutMs } : {}),
      });
    }
    return this.expandIn(raw, stack, false);
  }

  /** httpyac's `{{$input label $value: default}}`, `$password`, `$pick`: asked once per run, like `# @prompt`. */
  private async input(label: string, defaultValue: string | undefined, secret: boolean): Promise<string> {
    const key = `$input ${label}`;
    const answered = this.options.promptCache.get(key);
    if (answered !== undefined) return answered;
    const placeholder = this.deferred(label);
    if (placeholder !== undefined) return placeholder;
    const answer = await this.options.prompter({ name: label, defaultValue: defaultValue ?? '', secret: secret || isSecretName(label) }).catch((error: unknown) => {
      throw error instanceof VariableError ? new VariableError(`{{$input ${label}}} asks for a value, but stdin is not a terminal${this.where()}`, { hint: 'run it on a terminal, or write the value in the file' }) : error;
    });
    if (secret) this.options.secrets?.add(answer);
    this.options.promptCache.set(key, answer);
    return answer;
  }

  private async fromProfile(name: string, variable: ProfileVariable, stack: string[]): Promise<string> {
    if (typeof variable === 'string') return this.fromTrusted(name, variable, stack, true);
    if (!variable.interactive) return this.fromTrusted(name, variable.value, stack, true);
    const answered = this.options.promptCache.get(name);
    if (answered !== undefined) return answered;
    const placeholder = this.deferred(name);
    if (placeholder !== undefined) return placeholder;
    const defaultValue = await this.expandIn(variable.value, stack, false);
    const answer = await this.options.prompter({ name, defaultValue, secret: variable.secret === true || isSecretName(name) });
    this.options.promptCache.set(name, answer);
    return answer;
  }

  /**
   * A variable error (a cycle, a system variable's) with where its template is written in front
   * (`api.http:7: …`), as an unknown variable's; others, and one placed already, as they are.
   */
  private async placed(error: unknown, written: string): Promise<unknown> {
    if (!(error instanceof VariableError)) return error;
    const { requestLine } = this.options;
    const at = (await this.options.writtenAt?.(written)) ?? requestLine;
    // Placed already (an environment's value names the request's line itself): as it is.
    if (at === undefined || [at, requestLine].some((place) => place !== undefined && error.message.startsWith(`${place}: `))) return error;
    return new VariableError(`${at}: ${error.message}`, { ...(error.hint === undefined ? {} : { hint: error.hint }) });
  }

  private where(): string {
    return this.options.requestName ? ` in request "${this.options.requestName}"` : '';
  }
}

