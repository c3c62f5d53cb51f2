/**
 * Where environment files may be (docs/environments.md): the folders searched and the files of
 * the JSON kinds found in them. Every run does this; parsing what it finds is environment-files.ts,
 * imported only when there is something to parse.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { MAX_CONFIG_BYTES } from './input-limits.js';
import { isSharedFolder, nearestWith, REPOSITORY_MARKERS } from './project.js';

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A repository's root, or a package's. */
const ENVIRONMENT_ROOTS = [...REPOSITORY_MARKERS, 'package.json'];

/**
 * The nearest folder at or above `dir` with `.git`, `.hg` or `package.json`, else the filesystem
 * root: environment files are searched up to it (a repository's search never reaches the files of
 * one it sits in).
 */
export function projectRoot(dir: string): string {
  return nearestWith(dir, ENVIRONMENT_ROOTS) ?? parse(resolve(dir)).root;
}

/** The folders searched, farthest first: the root's `env/` folder, the root, then down to `dir`. */
export function searchFolders(dir: string, root: string): string[] {
  const chain: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    // Not above the request's folder into a shared folder (/tmp): its files are anyone's.
    if (chain.length > 0 && isSharedFolder(at)) break;
    chain.unshift(at);
    if (at === root || dirname(at) === at) break;
  }
  const envDir = join(root, 'env');
  if (dirname(root) !== root && !chain.includes(envDir)) {
    try {
      if (statSync(envDir).isDirectory()) chain.unshift(envDir);
    } catch {
      // no env/ folder
    }
  }
  return chain;
}

/**
 * A JSON file the search looks into for a key (`.vscode/settings.json`, `package.json`): its text,
 * else `undefined` when it is no regular file of at most {@link MAX_CONFIG_BYTES} bytes — the reader of
 * environment files (read-config-file.ts, loaded when one is read) then says what is wrong.
 */
function peek(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size <= MAX_CONFIG_BYTES ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** httpyac's JavaScript configs, in the order it looks for them (its `defaultConfigFiles`); the first found is its config. */
const HTTPYAC_JS_CONFIGS = ['.httpyac.js', '.httpyac.cjs', '.httpyac.config.js', '.httpyac.config.cjs', 'httpyac.config.js', 'httpyac.config.cjs'];

/** resterm's environment files (its README: `resterm.env.json`, else `rest-client.env.json`). */
const RESTERM_FILES = ['rest-client.env.json', 'resterm.env.json'];

/**
 * kulala and rest.nvim: the `.env` files' values as variables — from the project root down to
 * `dir`, the nearer winning. Read only when a request uses a name nothing else defines, so a
 * `.env` in the project costs a plain run nothing.
 */
export async function dotenvValues(dir: string): Promise<Record<string, string>> {
  const folders = searchFolders(resolve(dir), projectRoot(dir));
  const files = folders.map((folder) => join(folder, '.env')).filter(isFile);
  if (files.length === 0) return {};
  const [{ parseDotenv }, { readEnvironmentFile }] = await Promise.all([import('./dotenv.js'), import('./read-config-file.js')]);
  return Object.assign(Object.create(null) as Record<string, string>, ...files.map((path) => parseDotenv(readEnvironmentFile(path)))) as Record<string, string>;
}

/** A file of the JSON kinds that may define environments (read again, checked, by its reader: what was peeked at is not kept). */
export interface JsonCandidate {
  path: string;
  kind: 'jetbrains' | 'private' | 'resterm' | 'vscode' | 'httpyac' | 'httpyac-js' | 'package';
}

/**
 * The files of the JSON kinds in `folders`, in the order they are read. A generator, so that
 * their reader reads and parses each in turn (the first broken one is the one reported), and a
 * run without any stops at the search.
 */
export function* jsonCandidates(folders: string[]): Generator<JsonCandidate> {
  for (const folder of folders) {
    const jetbrains = join(folder, 'http-client.env.json');
    if (isFile(jetbrains)) yield { path: jetbrains, kind: 'jetbrains' };
    const secret = join(folder, 'http-client.private.env.json');
    if (isFile(secret)) yield { path: secret, kind: 'private' };
    // resterm: JetBrains' shape, nested objects read by dotted names.
    for (const file of RESTERM_FILES) {
      const path = join(folder, file);
      if (isFile(path)) yield { path, kind: 'resterm' };
    }
    const vscode = join(folder, '.vscode', 'settings.json');
    // Settings without REST Client's key are none of reqflow's business (nor is a typo elsewhere in them).
    // One too large to look into is handed on: reading it says so.
    const text = peek(vscode);
    if (text === undefined ? isFile(vscode) : text.includes('rest-client.environmentVariables') || text.includes('rest-client.defaultHeaders')) yield { path: vscode, kind: 'vscode' };
    // httpyac's JavaScript config (read in a trusted project only, where it replaces .httpyac.json, as in httpyac), its own file, else its section of package.json.
    const script = HTTPYAC_JS_CONFIGS.map((name) => join(folder, name)).find(isFile);
    if (script) yield { path: script, kind: 'httpyac-js' };
    const own = join(folder, '.httpyac.json');
    if (isFile(own)) {
      yield { path: own, kind: 'httpyac' };
      continue;
    }
    const manifest = join(folder, 'package.json');
    const config = peek(manifest);
    if (config === undefined ? isFile(manifest) : config.includes('"httpyac"')) yield { path: manifest, kind: 'package' };
  }
}
