/**
 * Environment files read and merged by the rules of environments.ts (docs/environments.md):
 * imported only when the search found files that may apply, or `--env` names one.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseDotenv } from './dotenv.js';
import { UsageError } from './errors/index.js';
import { setHeader } from './headers.js';
import { isLosslessNumber } from './json-exact.js';
import { parseJsonText } from './json-text.js';
import { closestName } from './suggest.js';
import { isInside, projectRoot as sessionProject, real } from './project.js';
import { isFile, jsonCandidates, projectRoot, searchFolders } from './environment-search.js';
import { readEnvironmentFile as read } from './read-config-file.js';
import { expandSharedReferences } from './shared-references.js';
import { assignValues, emptyValues, flattenBudget, flattenValue, type EnvironmentValues, type UnusableValue } from './environment-values.js';

export type { UnusableValue };

export interface Environment {
  /** The environment picked (undefined: only `$shared` values). */
  name?: string;
  /** Every value as text, merged by the rules in environments.ts (may hold `{{…}}`, never run as shell); objects also by dotted names (`base.url`). */
  variables: Record<string, string>;
  /** Objects, arrays and `null` that have no text form in the file's tool: refused where a request uses them. */
  unusable: Record<string, UnusableValue>;
  /** Every value of the private files (all environments): masked like profile secrets. */
  secrets: string[];
  /** The headers the project's tool config adds where a request writes none of that name ({@link toolDefaultHeaders}). */
  defaultHeaders?: Record<string, string>;
  /** Where each of {@link defaultHeaders} is written, by lower-case name (`/p/.httpyac.json: "defaultHeaders".Cookie`): an error in its value names it. */
  defaultHeaderOrigins?: Record<string, string>;
}

export interface LoadEnvironmentOptions {
  /**
   * `reqflow test` over a tree where only some folders have environment files: a request file
   * with no environment file at all runs without the environment, and this hears of it. (Files
   * that have environments, none of them `name`, are still an error.)
   */
  withoutFiles?: (requestDir: string) => void;
  /** The OS variables resterm's `env:NAME` values read (default: the process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether httpyac's JavaScript config `path` may run (a trusted project: docs/trust.md).
   * `required`: the run picked an environment, which the config may define — untrusted, this
   * throws the refusal; else it answers false and the config is left out. Absent: never run.
   */
  trust?: (path: string, required: boolean) => Promise<boolean>;
}

type Kind = 'jetbrains' | 'resterm' | 'vscode' | 'httpyac' | 'dotenv' | 'private';

interface EnvFile {
  path: string;
  kind: Kind;
  /** Environment name → its raw values (`$shared` included; other `$…` keys such as `$schema` left out). */
  table: Record<string, Record<string, unknown>>;
}

const SHARED = '$shared';
/** httpyac: the values used when no environment is picked. */
const DEFAULT = '$default';
/** JetBrains settings that live beside the variables; reqflow takes them from the profile instead. */
const SETTINGS = new Map<string, string>([
  ['sslconfiguration', 'client certificates and verification go in the profile\'s "tls"'],
  ['security', 'authentication goes in the profile\'s "auth" or "oauth"'],
]); // a Map: an object would call `constructor` or `__proto__` a setting too
/** Later kinds win over earlier ones in the same layer (`$shared`, then the environment's own). */
const KIND_ORDER: Kind[] = ['jetbrains', 'resterm', 'vscode', 'httpyac', 'dotenv', 'private'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with comments and trailing commas, as the JetBrains and VS Code editors accept them; not nested past what flattening its objects by dotted names can walk; numbers as written (a 64-bit id). */
function parseJson(path: string, text: string): Promise<unknown> {
  return parseJsonText(path, text, { jsonc: true, shallow: true, exact: true, hint: 'environment files are JSON (comments and trailing commas allowed): check the brackets, commas and quotes' });
}

/** `{"dev": {...}, "$shared": {...}}`: every environment an object; other `$…` keys (`$schema`) are not environments. */
function table(raw: unknown, path: string, key?: string): EnvFile['table'] {
  if (!isObject(raw)) throw new UsageError(`${path}: ${key ? `"${key}": ` : ''}expected an object of environments, like {"dev": {"host": "..."}}`);
  const out = Object.create(null) as EnvFile['table'];
  for (const [name, env] of Object.entries(raw)) {
    if (name.startsWith('$') && name !== SHARED && name !== DEFAULT) continue;
    if (!isObject(env)) throw new UsageError(`${path}: ${key ? `"${key}".` : ''}${name}: expected an object of "name": "value"`);
    out[name] = env;
  }
  return out;
}

/** The JSON kinds, in every folder of the search. */
/** What a trusted project's JavaScript configs gave besides environments: their default headers, and the folders they came from. */
interface JsConfigs {
  trust: NonNullable<LoadEnvironmentOptions['trust']>;
  required: boolean;
  headers: Record<string, string>;
  /** Where each of `headers` is written, as {@link Environment.defaultHeaderOrigins}. */
  origins: Record<string, string>;
  loaded: Set<string>;
}

async function jsonFiles(folders: string[], js?: JsConfigs): Promise<EnvFile[]> {
  const found: EnvFile[] = [];
  // A folder whose JavaScript config was loaded: httpyac reads no other config there.
  const loaded = js?.loaded ?? new Set<string>();
  for (const { path, kind } of jsonCandidates(folders)) {
    if ((kind === 'httpyac' || kind === 'package') && loaded.has(dirname(path))) continue;
    if (kind === 'httpyac-js') {
      if (!js || !(await js.trust(path, js.required))) continue;
      const config = await (await import('./httpyac-js-config.js')).loadHttpyacJsConfig(path);
      if (config.environments !== undefined) found.push({ path, kind: 'httpyac', table: table(config.environments, path, 'environments') });
      for (const [header, value] of Object.entries(config.defaultHeaders ?? {})) {
        setHeader(js.headers, header, value);
        js.origins[header.toLowerCase()] = `${path}: defaultHeaders.${header}`;
      }
      loaded.add(dirname(path));
    } else if (kind === 'jetbrains' || kind === 'private' || kind === 'resterm') {
      found.push({ path, kind, table: table(await parseJson(path, read(path)), path) });
    } else if (kind === 'vscode') {
      const settings = await parseJson(path, read(path));
      const envs = isObject(settings) ? settings['rest-client.environmentVariables'] : undefined;
      if (envs !== undefined) found.push({ path, kind, table: table(envs, path, 'rest-client.environmentVariables') });
    } else {
      // httpyac's `"environments"` in `.httpyac.json`, else under `"httpyac"` in `package.json`.
      const config = await parseJson(path, read(path));
      const section = kind === 'package' ? (isObject(config) ? config.httpyac : undefined) : config;
      const envs = isObject(section) ? section.environments : undefined;
      if (envs !== undefined) found.push({ path, kind: 'httpyac', table: table(envs, path, kind === 'package' ? 'httpyac.environments' : 'environments') });
    }
  }
  return found;
}

/**
 * The headers the project's tool config adds to every request that writes none of that name (any
 * spelling): httpyac's `defaultHeaders` (`.httpyac.json`, or under `httpyac` in package.json; its
 * `defaultHeaders` request hook) and VS Code REST Client's `rest-client.defaultHeaders`
 * (.vscode/settings.json). A nearer file's value wins; values may hold `{{…}}`. Without them a
 * project's files go out without the Cookie or Content-Type its author set once for all of them.
 */
async function toolDefaultHeaders(folders: string[], js: JsConfigs | undefined): Promise<{ headers: Record<string, string>; origins: Record<string, string> } | undefined> {
  let headers: Record<string, string> | undefined;
  const origins: Record<string, string> = {};
  for (const { path, kind } of jsonCandidates(projectFolders(folders))) {
    if (kind !== 'httpyac' && kind !== 'package' && kind !== 'vscode') continue;
    if (kind !== 'vscode' && js?.loaded.has(dirname(path))) continue; // its JavaScript config was read instead
    const config = await parseJson(path, read(path));
    const section = kind === 'package' ? (isObject(config) ? config.httpyac : undefined) : config;
    const key = kind === 'vscode' ? 'rest-client.defaultHeaders' : kind === 'package' ? 'httpyac.defaultHeaders' : 'defaultHeaders';
    const raw = isObject(section) ? section[kind === 'vscode' ? key : 'defaultHeaders'] : undefined;
    if (raw === undefined) continue;
    if (!isObject(raw)) throw new UsageError(`${path}: "${key}": expected an object of "Header-Name": "value"`);
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && !isLosslessNumber(value)) throw new UsageError(`${path}: "${key}".${name}: a header's value is text, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object'}`);
      setHeader((headers ??= {}), name, String(value));
      origins[name.toLowerCase()] = `${path}: "${key}".${name}`;
    }
  }
  // A trusted JavaScript config's own (httpyac's `defaultHeaders` there).
  for (const [name, value] of Object.entries(js?.headers ?? {})) setHeader((headers ??= {}), name, value);
  Object.assign(origins, js?.origins);
  return headers && { headers, origins };
}

/**
 * The folders of the search that belong to the request's own project (src/core/project.ts: the
 * nearest folder with a project marker, never the home folder or `/`): a parent folder's or the
 * home folder's default headers (an `Authorization` set for another project) are never sent by
 * this project's requests, though the environment search climbs to the `.git` or `package.json`.
 */
function projectFolders(folders: string[]): string[] {
  const own = folders[folders.length - 1];
  if (own === undefined) return folders;
  const project = sessionProject(own);
  return folders.filter((folder) => isInside(project, real(folder)));
}

/**
 * httpyac: `NAME.env`, then `.env.NAME`, in every folder of the search. A plain `.env` is not
 * read here: its values are the lowest source of all, with or without `--env` (variables.ts), so
 * an application's `.env` never changes a value the profile or another file defines.
 */
function dotenvFiles(folders: string[], name: string): EnvFile[] {
  const own: EnvFile[] = [];
  for (const folder of folders) {
    for (const file of [`${name}.env`, `.env.${name}`]) {
      const path = join(folder, file);
      if (isFile(path)) own.push({ path, kind: 'dotenv', table: { [name]: parseDotenv(read(path)) } });
    }
  }
  return own;
}

/** Environment names of the dotenv files in the search (`dev.env`, `.env.dev` → `dev`), for messages. */
function dotenvNames(folders: string[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const folder of folders) {
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const name = entry.startsWith('.env.') ? entry.slice(5) : entry.endsWith('.env') && entry !== '.env' ? entry.slice(0, -4) : undefined;
      if (name && isFile(join(folder, entry))) names.set(name, [...(names.get(name) ?? []), join(folder, entry)]);
    }
  }
  return names;
}

/** What reading values needs beside the file: a note for skipped settings, the OS variables and the secrets found (resterm's `env:NAME`). */
interface ValueContext {
  note: (message: string) => void;
  env: NodeJS.ProcessEnv;
  secrets: string[];
}

/** resterm's `env:NAME`: NAME, else NAME in capitals; a value found is a secret, as resterm treats it. */
function osVariable(context: ValueContext): (name: string) => string | undefined {
  return (name) => {
    // Own names only: `env:constructor` is unset, not the object's machinery.
    const own = (key: string): string | undefined => (Object.hasOwn(context.env, key) ? context.env[key] : undefined);
    const value = own(name) ?? own(name.toUpperCase());
    if (value !== undefined) context.secrets.push(value);
    return value;
  };
}

/** An environment's values (environment-values.ts); JetBrains' settings objects are skipped with a note. */
function values(raw: Record<string, unknown>, file: EnvFile, env: string, context: ValueContext): EnvironmentValues {
  const { note } = context;
  const out = emptyValues();
  const budget = flattenBudget();
  for (const [name, value] of Object.entries(raw)) {
    if (isObject(value) && (file.kind === 'jetbrains' || file.kind === 'private') && SETTINGS.has(name.toLowerCase())) {
      note(`${file.path}: ${env}.${name} is a JetBrains setting, not a variable: ignored (${SETTINGS.get(name.toLowerCase())})`);
    } else {
      flattenValue(name, `${env}.${name}`, value, { file: file.path, budget, asJson: file.kind === 'httpyac', ...(file.kind === 'resterm' ? { osVariable: osVariable(context) } : {}) }, out);
    }
  }
  return out;
}

/** Every string or number anywhere in a file (settings included): what a private file must never show. */
function leaves(value: unknown, into: string[]): string[] {
  if (typeof value === 'string' || typeof value === 'number' || isLosslessNumber(value)) into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) leaves(item, into);
  else if (isObject(value)) for (const item of Object.values(value)) leaves(item, into);
  return into;
}

function byKind(files: EnvFile[]): EnvFile[] {
  return KIND_ORDER.flatMap((kind) => files.filter((file) => file.kind === kind));
}

/** Every environment the files of the search define (`$shared` and `$default` are none), with the files defining it. */
function environmentsFound(jsonFound: EnvFile[], folders: string[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const file of jsonFound) for (const env of Object.keys(file.table)) if (env !== SHARED && env !== DEFAULT) names.set(env, [...(names.get(env) ?? []), file.path]);
  for (const [env, paths] of dotenvNames(folders)) names.set(env, [...(names.get(env) ?? []), ...paths]);
  return names;
}

function unknownEnvironment(name: string, requestDir: string, root: string, jsonFound: EnvFile[], folders: string[]): UsageError {
  const names = environmentsFound(jsonFound, folders);
  const shown = (path: string): string => relative(root, path) || path;
  const where = `from ${requestDir} up to the project root ${root}`;
  if (names.size === 0) {
    return new UsageError(`no environment "${name}": no environment file ${where}`, {
      hint: jsonFound.length > 0 ? `${jsonFound.map((file) => shown(file.path)).join(', ')} define only $shared values` : 'environments live in http-client.env.json (+ http-client.private.env.json), .vscode/settings.json ("rest-client.environmentVariables"), .httpyac.json ("environments") or NAME.env / .env.NAME (see docs/environments.md)',
    });
  }
  const list = [...names].map(([env, paths]) => `${env} (${paths.map(shown).join(', ')})`).join(', ');
  const guess = closestName(name, names.keys());
  return new UsageError(`no environment "${name}" in the environment files ${where}`, { hint: `${guess === undefined ? '' : `did you mean --env ${guess}? `}environments found: ${list}` });
}

/**
 * Each environment's own variable names (`$shared` and `$default` left out: they apply without
 * `--env`), with the file that defines each, from the files {@link loadEnvironment} reads for
 * `requestDir`: for an unknown variable's hint, `--env dev defines it`. Only a hint depends on
 * it, so a file that cannot be read or parsed is left out.
 */
export async function environmentDefinitions(requestDir: string): Promise<Map<string, Map<string, string>>> {
  const dir = resolve(requestDir);
  const folders = searchFolders(dir, projectRoot(dir));
  const found = new Map<string, Map<string, string>>();
  const add = (env: string, names: string[], path: string): void => {
    const own = found.get(env) ?? new Map<string, string>();
    for (const name of names) own.set(name, path); // nearer files come later and win, as in loadEnvironment
    found.set(env, own);
  };
  const json = await jsonFiles(folders).catch(() => []);
  for (const file of json) {
    const budget = flattenBudget();
    try {
      for (const [env, vars] of Object.entries(file.table)) {
        if (env === SHARED || env === DEFAULT) continue;
        // JetBrains' settings objects (SSLConfiguration) are not variables; other objects are, with their dotted names.
        const names = emptyValues();
        for (const [name, value] of Object.entries(vars)) if (!(isObject(value) && SETTINGS.has(name.toLowerCase()))) flattenValue(name, name, value, { file: file.path, budget, asJson: false }, names);
        add(env, [...Object.keys(names.vars), ...Object.keys(names.unusable)], file.path);
      }
    } catch {
      // names past the flattening budget: no hint from the rest of it
    }
  }
  for (const [env, paths] of dotenvNames(folders)) {
    for (const path of paths) {
      try {
        add(env, Object.keys(parseDotenv(read(path))), path);
      } catch {
        // unreadable: no hint from it
      }
    }
  }
  return found;
}

/**
 * The names `--env` accepts for a request file in `requestDir` (for shell completion), sorted.
 * Exit 2 as {@link loadEnvironment} for an environment file that is not valid JSON.
 */
export async function environmentNames(requestDir: string): Promise<string[]> {
  const dir = resolve(requestDir);
  const folders = searchFolders(dir, projectRoot(dir));
  return [...environmentsFound(await jsonFiles(folders), folders).keys()].sort();
}

/** {@link loadEnvironment} once environment files may apply: exit 2 for a name no file defines. */
export async function loadFoundEnvironment(dir: string, root: string, folders: string[], name: string | undefined, note: (message: string) => void, options: LoadEnvironmentOptions): Promise<Environment | undefined> {
  const js: JsConfigs | undefined = options.trust ? { trust: options.trust, required: name !== undefined, headers: {}, origins: {}, loaded: new Set() } : undefined;
  const json = await jsonFiles(folders, js);
  const tool = await toolDefaultHeaders(folders, js);
  const toolHeaders = tool && { defaultHeaders: tool.headers, defaultHeaderOrigins: tool.origins };
  const dotenv = name !== undefined ? dotenvFiles(folders, name) : [];
  // No --env: httpyac's `$default` values, where a file has them.
  const own = name ?? DEFAULT;
  const defines = (file: EnvFile): boolean => Object.hasOwn(file.table, own);
  if (name !== undefined && !json.some(defines) && dotenv.length === 0) {
    if (options.withoutFiles && json.length === 0 && dotenvNames(folders).size === 0) {
      options.withoutFiles(dir);
      return undefined;
    }
    throw unknownEnvironment(name, dir, root, json, folders);
  }
  const files = [...json, ...dotenv];
  const sharedFiles = files.filter((file) => Object.hasOwn(file.table, SHARED));
  const ownFiles = files.filter(defines);
  if (sharedFiles.length === 0 && ownFiles.length === 0) return toolHeaders ? { variables: {}, unusable: {}, secrets: [], ...toolHeaders } : undefined;

  const context: ValueContext = { note, env: options.env ?? process.env, secrets: [] };
  const shared = emptyValues();
  const sharedFrom = new Map<string, string>();
  for (const file of byKind(sharedFiles)) {
    const read = values(file.table[SHARED] ?? {}, file, SHARED, context);
    for (const name of [...Object.keys(read.vars), ...Object.keys(read.unusable)]) sharedFrom.set(name, file.path);
    assignValues(shared, read);
  }
  // `{{$shared name}}` (VS Code), in the `$shared` values themselves too.
  const layer = { vars: shared.vars, files: sharedFrom };
  const merged = assignValues(emptyValues(), expandSharedReferences(shared, layer, dir, SHARED));
  for (const file of byKind(ownFiles)) assignValues(merged, expandSharedReferences(values(file.table[own] ?? {}, file, own, context), layer, file.path, own));
  const environment: Environment = { variables: merged.vars, unusable: merged.unusable, secrets: context.secrets };
  if (name !== undefined) environment.name = name;
  if (toolHeaders) Object.assign(environment, toolHeaders);
  for (const file of json) if (file.kind === 'private') leaves(file.table, environment.secrets);
  return environment;
}
