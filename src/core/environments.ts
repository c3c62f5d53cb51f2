/**
 * Environments of the `.http` tools, picked with `--env NAME` (or `REQFLOW_ENV`):
 * - JetBrains: `http-client.env.json`, overridden per environment by
 *   `http-client.private.env.json` (its values are secrets: masked in all output);
 * - VS Code REST Client: `rest-client.environmentVariables` in `.vscode/settings.json` (JSONC),
 *   whose values may say `{{$shared name}}`;
 * - httpyac: `NAME.env` or `.env.NAME` (dotenv lines) beside the request file.
 * Each kind is looked for in the request file's folder, then its parents up to the project root
 * (the nearest folder with `.git` or `package.json`). `$shared` values apply to every
 * environment (and, with no `--env`, alone); an environment's own values win over them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, parse as parsePath } from 'node:path';
import { ParseError, UsageError } from './errors/index.js';

export interface Environment {
  /** The environment picked (undefined: only `$shared` values). */
  name?: string;
  variables: Record<string, string>;
  /** Values from private files: masked like profile secrets. */
  secrets: string[];
}

type Table = Record<string, Record<string, string>>;

interface Source {
  file: string;
  table: Table;
  private: boolean;
}

/** Folders from `dir` up to the project root (or the filesystem root). */
function folders(dir: string): string[] {
  const out: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    out.push(at);
    if (existsSync(join(at, '.git')) || existsSync(join(at, 'package.json')) || at === parsePath(at).root) return out;
  }
}

function nearest(dir: string, name: string): string | undefined {
  return folders(dir).map((at) => join(at, name)).find((path) => existsSync(path));
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** An environment's values as text; objects (JetBrains' SSL and security settings) are settings, not variables. */
function values(raw: unknown, file: string, where: string): Record<string, string> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${file}: ${where}: expected an object of "name": "value"`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = String(value);
    else if (value !== null && typeof value === 'object') continue; // SSLConfiguration, security, ...: not variables
    else throw new UsageError(`${file}: ${where}.${name}: expected a string, number or boolean`);
  }
  return out;
}

function table(raw: unknown, file: string, where: string): Table {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${file}: ${where}: expected an object of environments`);
  const out: Table = {};
  for (const [name, env] of Object.entries(raw)) out[name] = values(env, file, `${where}.${name}`);
  return out;
}

function readJson(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    const { line, column } = lineColumn(text, at ? Number(at[1]) : 0);
    throw new ParseError(file, line, column, `not valid JSON (${(error as Error).message.replace(/ in JSON at position \d+.*$/, '')})`);
  }
}

async function readJsonc(file: string): Promise<unknown> {
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const text = readFileSync(file, 'utf8');
  const errors: Parameters<typeof parse>[1] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  const first = errors?.[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    throw new ParseError(file, line, column, `not valid JSON with comments (${printParseErrorCode(first.error)})`);
  }
  return value;
}

function dotenvTable(file: string, name: string): Table {
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const raw = match[2] ?? '';
    const quoted = /^(["'])(.*)\1$/s.exec(raw);
    vars[match[1] as string] = quoted ? (quoted[2] ?? '') : raw.replace(/\s+#.*$/, '');
  }
  return { [name]: vars };
}

async function sources(dir: string, wanted: string | undefined): Promise<Source[]> {
  const found: Source[] = [];
  const jetbrains = nearest(dir, 'http-client.env.json');
  if (jetbrains) found.push({ file: jetbrains, table: table(readJson(jetbrains), jetbrains, 'environments'), private: false });
  const secret = nearest(dir, 'http-client.private.env.json');
  if (secret) found.push({ file: secret, table: table(readJson(secret), secret, 'environments'), private: true });
  const vscode = nearest(dir, join('.vscode', 'settings.json'));
  if (vscode) {
    const settings = (await readJsonc(vscode)) as Record<string, unknown> | undefined;
    const envs = settings?.['rest-client.environmentVariables'];
    if (envs !== undefined) found.push({ file: vscode, table: table(envs, vscode, 'rest-client.environmentVariables'), private: false });
  }
  if (wanted !== undefined) {
    for (const name of [`${wanted}.env`, `.env.${wanted}`]) {
      const file = join(dir, name);
      if (existsSync(file)) found.push({ file, table: dotenvTable(file, wanted), private: false });
    }
  }
  return found;
}

/** `{{$shared name}}` (VS Code) in an environment's values, from the `$shared` table. */
function withShared(vars: Record<string, string>, shared: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) out[name] = value.replace(/\{\{\s*\$shared\s+([\w.-]+)\s*\}\}/g, (whole, key: string) => shared[key] ?? whole);
  return out;
}

/** The variables of environment `name` (or only `$shared` ones when no name is given); exit 2 for a name no file defines. */
export async function loadEnvironment(requestDir: string, name: string | undefined): Promise<Environment | undefined> {
  const found = await sources(requestDir, name);
  if (found.length === 0) {
    if (name === undefined) return undefined;
    throw new UsageError(`no environment "${name}": no environment file found from ${requestDir} up to the project root`, { hint: 'environments live in http-client.env.json, .vscode/settings.json (rest-client.environmentVariables) or NAME.env' });
  }
  if (name !== undefined && !found.some((source) => source.table[name] !== undefined)) {
    const names = [...new Set(found.flatMap((source) => Object.keys(source.table).filter((n) => n !== '$shared')))];
    throw new UsageError(`no environment "${name}" in ${found.map((source) => source.file).join(', ')}`, { hint: names.length > 0 ? `environments there: ${names.join(', ')}` : 'those files define no environment' });
  }
  const environment: Environment = { variables: {}, secrets: [] };
  if (name !== undefined) environment.name = name;
  // Public files first, private ones last: a private value wins; $shared under the environment's own.
  for (const source of [...found.filter((s) => !s.private), ...found.filter((s) => s.private)]) {
    const shared = source.table.$shared ?? {};
    const own = name !== undefined ? (source.table[name] ?? {}) : {};
    const merged = { ...shared, ...withShared(own, shared) };
    Object.assign(environment.variables, merged);
    if (source.private) environment.secrets.push(...Object.values(merged));
  }
  return environment;
}
