import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './errors/index.js';
import { NOT_IN_HEADER_VALUE, unheldNameRule } from './headers.js';
import { isLosslessNumber, parseJsonExact } from './json-exact.js';
import { notAFile } from './not-a-file.js';
import { isInside, isSharedFolder, markedProject, real, repositoryRoot } from './project.js';
import { closestName } from './suggest.js';
import { outsideTemplates } from './variables.js';
import type { AuthSettings, OAuthSettings, Profile, ProfileVariable, TlsSettings } from './model.js';

export const PROFILES_FILE = '.profiles.json';

export interface ProfilesDocument {
  /** Absolute path of the file the profiles came from, or undefined when none was found. */
  path?: string;
  profiles: Profile[];
  /** By profile name, its fields that look mistyped, as warnings (`varaibles`): said by a run that uses the profile. */
  unknownFields?: Map<string, string[]>;
}

/**
 * Whether a profiles file is at `path`; something else of that name (a folder) is exit 2, as a
 * request file's would be: skipping it would run with another profiles file, or none, and say
 * nothing.
 */
async function isFile(path: string): Promise<boolean> {
  let stat;
  try {
    stat = statSync(path); // sync: a handful of stats at start-up
  } catch {
    return false;
  }
  if (stat.isFile()) return true;
  throw new UsageError(`cannot read profiles file ${path}: it is ${stat.isDirectory() ? 'a folder' : (notAFile(path) ?? 'not a regular file')}, not a file`, { hint: `rename it, or name the profiles file to use with --profiles FILE` });
}

/**
 * `.profiles.json` in the request file's folder or its parents, else in the current folder —
 * unless the request file is in a project of its own (a repository) that the current folder is
 * not in: the current folder's profiles would make it that folder's project, and send that
 * project's session (a login token) to the other project's servers.
 */
/** One folder at or below the other: a profiles folder in the repository, or above it. */
const sameTree = (a: string, b: string): boolean => isInside(a, b) || isInside(b, a);

export async function findProfilesFile(startDir: string, cwd: string = process.cwd()): Promise<string | undefined> {
  const start = real(resolve(startDir));
  // Up the folders as written (a project reached through a link finds the profiles beside the
  // link), but never a profiles file outside the request's own repository: a link inside a
  // project to another repository runs that repository's files as its own.
  const repository = repositoryRoot(start);
  let dir = resolve(startDir);
  for (;;) {
    // Never from a shared folder (/tmp): another user's or program's file there is no project's.
    if (isSharedFolder(dir)) break;
    const candidate = join(dir, PROFILES_FILE);
    if (await isFile(candidate) && (repository === undefined || sameTree(real(dir), repository))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const fallback = join(resolve(cwd), PROFILES_FILE);
  if (!(await isFile(fallback))) return undefined;
  // Only for a request file in no project, or in the current folder's project and repository: not
  // for the repository a nested one (the current folder) sits in, nor another one beside it.
  const here = real(resolve(cwd));
  const own = markedProject(start);
  return own === undefined || (isInside(own, here) && repositoryRoot(here) === repositoryRoot(start)) ? fallback : undefined;
}

export async function loadProfiles(path: string): Promise<ProfilesDocument> {
  const kind = notAFile(path, { pipe: true }); // only --profiles names a pipe (readConfigFile below)
  if (kind) throw new UsageError(`cannot read profiles file ${path}: it is ${kind}, not a file`);
  let text: string;
  try {
    text = (await import('./read-config-file.js')).readConfigFile(path, { pipe: true }); // only --profiles names a pipe: the search finds regular files
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read profiles file ${path}: ${code === 'ENOENT' ? 'no such file' : code ?? String(error)}`);
  }
  const clean = text.replace(/^\uFEFF/, '');
  let raw: unknown;
  try {
    raw = parseJsonExact(clean).value; // a variable's 64-bit id is sent as written
  } catch (error) {
    // Comments and trailing commas (JSONC) are allowed: their parser loads only for such a file.
    const value = await (await import('./json-text.js')).jsoncValue(clean);
    if (value !== undefined) return withUnknownFields({ path, profiles: profilesFrom(value, path) }, value);
    // Where it breaks, said without the file's text: V8 quotes it, and a profiles file holds tokens.
    const { jsonSyntaxError, lineColumn } = await import('./json-error.js');
    const { message, offset } = jsonSyntaxError(clean, error);
    const where = offset === undefined ? '' : `:${Object.values(lineColumn(clean, offset)).join(':')}`;
    throw new UsageError(`${path}${where}: not valid JSON (${message})`, { hint: PROFILES_SHAPE });
  }
  return withUnknownFields({ path, profiles: profilesFrom(raw, path) }, raw);
}

const PROFILES_SHAPE = 'the profiles file is a JSON array of profiles, or {"profiles": [...]}';

/** Validates profiles text (as the TUI writes it) once, where it enters; every error names the field. */
export function parseProfiles(text: string, path: string): Profile[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new UsageError(`${path}: not valid JSON`, { hint: PROFILES_SHAPE }); // never V8's message: it quotes the text
  }
  return profilesFrom(raw, path);
}

/** Validates a profiles document; every error names the field. */
export function profilesFrom(raw: unknown, path: string): Profile[] {
  const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.profiles) ? raw.profiles : undefined;
  if (!list) throw new UsageError(`${path}: expected an array of profiles or {"profiles": [...]}`);
  const baseDir = dirname(resolve(path));
  const profiles = list.map((entry, index) => validateProfile(entry, `${path}: profiles[${index}]`, baseDir));
  const seen = new Set<string>();
  for (const profile of profiles) {
    if (seen.has(profile.name)) throw new UsageError(`${path}: profile name "${profile.name}" is used more than once`, { hint: 'give each profile a unique name' });
    seen.add(profile.name);
  }
  return profiles;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(where: string, expected: string): never {
  throw new UsageError(`${where}: expected ${expected}`);
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) fail(where, 'an object of strings');
  for (const [key, item] of Object.entries(value)) if (typeof item !== 'string') fail(`${where}.${key}`, 'a string');
  return value as Record<string, string>;
}

/** Profile headers: token-character names, values HTTP can carry (a line break would split the request). */
function headerRecord(value: unknown, where: string): Record<string, string> {
  const headers = stringRecord(value, where);
  for (const [name, item] of Object.entries(headers)) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) fail(`${where}.${JSON.stringify(name)}`, 'a header name (letters, digits and !#$%&\'*+.^_`|~-)');
    if (unheldNameRule(name) !== undefined) fail(`${where}.${name}`, 'a header name reqflow can send (not __proto__)');
    // Outside its {{templates}} (their values are checked when resolved).
    if (NOT_IN_HEADER_VALUE.test(outsideTemplates(item))) fail(`${where}.${name}`, 'one line of visible ASCII characters, spaces and tabs (no control characters, nothing past ASCII: percent-encode it)');
  }
  return headers;
}

function optionalString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(where, 'a string');
  return value;
}

/**
 * restcli's multi-value variable: `{"options": ["http://dev", "http://prod"], "active": 1,
 * "aliases": {"prod": 1}}` — the active option is the value (`active` an index or an alias).
 */
function activeOption(item: Record<string, unknown>, where: string): string {
  const options = item.options as unknown[];
  if (options.length === 0 || !options.every((option) => typeof option === 'string' || typeof option === 'number' || typeof option === 'boolean' || isLosslessNumber(option))) fail(`${where}.options`, 'a non-empty array of strings');
  const aliases = item.aliases === undefined ? {} : item.aliases;
  if (!isObject(aliases)) fail(`${where}.aliases`, 'an object of "alias": index');
  for (const [alias, index] of Object.entries(aliases)) {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= options.length) fail(`${where}.aliases.${alias}`, `an index from 0 to ${options.length - 1}`);
  }
  const active = item.active ?? 0;
  const index = typeof active === 'string' && Object.hasOwn(aliases, active) ? (aliases[active] as number) : active;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= options.length) fail(`${where}.active`, `an index from 0 to ${options.length - 1} or one of the aliases`);
  return String(options[index]);
}

function validateVariables(value: unknown, where: string): Record<string, ProfileVariable> {
  if (value === undefined) return {};
  if (!isObject(value)) fail(where, 'an object');
  // No prototype: a variable named `__proto__` is kept like any other.
  const out = Object.create(null) as Record<string, ProfileVariable>;
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string') out[name] = item;
    else if (typeof item === 'number' || typeof item === 'boolean' || isLosslessNumber(item)) out[name] = String(item);
    else if (isObject(item) && Array.isArray(item.options)) out[name] = activeOption(item, `${where}.${name}`);
    else if (isObject(item) && (typeof item.value === 'string' || item.value === undefined)) {
      if (item.interactive !== undefined && typeof item.interactive !== 'boolean') fail(`${where}.${name}.interactive`, 'true or false');
      out[name] = { value: (item.value as string | undefined) ?? '', interactive: item.interactive === true, secret: item.secret === true };
    } else fail(`${where}.${name}`, 'a string or {"value": "...", "interactive": true}');
  }
  return out;
}

export function validateTls(value: unknown, where: string): TlsSettings | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail(where, 'an object');
  const tls: TlsSettings = {};
  for (const key of ['certFile', 'keyFile', 'caFile', 'pfxFile', 'passphrase'] as const) {
    const item = optionalString(value[key], `${where}.${key}`);
    if (item !== undefined) tls[key] = item;
  }
  const skip = value.insecureSkipVerify;
  if (skip !== undefined) {
    if (typeof skip === 'boolean') tls.insecureSkipVerify = skip;
    else if (skip === 'true' || skip === 'false') tls.insecureSkipVerify = skip === 'true';
    else fail(`${where}.insecureSkipVerify`, 'true or false');
  }
  return tls;
}

function validateOAuth(value: unknown, where: string): OAuthSettings | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail(where, 'an object');
  for (const key of OAUTH_FIELDS) optionalString(value[key], `${where}.${key}`);
  const grant = value.grant;
  if (grant !== undefined && !['authorization_code', 'client_credentials', 'device_code'].includes(grant as string)) {
    fail(`${where}.grant`, '"authorization_code", "client_credentials" or "device_code"');
  }
  // clientId and the endpoints are checked by the OAuth plugin when a flow needs them (exit 2 naming the field).
  return { ...value, clientId: (value.clientId as string | undefined) ?? '' } as OAuthSettings;
}

function validateAuth(value: unknown, where: string): AuthSettings | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return { type: value };
  if (!isObject(value) || typeof value.type !== 'string') fail(where, 'an object with a "type" string');
  return value as AuthSettings;
}

/**
 * A profile's fields (`$schema` is an editor's). Others are kept as they are — restcli's own
 * (`editor`), a team's (`x-team`) — and said only when they look like one of these mistyped
 * (`varaibles`, `grantType`): a typo would be ignored without a word.
 */
const PROFILE_FIELDS = ['name', 'variables', 'headers', 'oauth', 'tls', 'auth', 'proxy', 'noProxy', 'http2', 'history', '$schema'];
const OAUTH_FIELDS = ['authUrl', 'tokenUrl', 'clientId', 'clientSecret', 'scope', 'redirectUrl', 'deviceUrl', 'revocationUrl', 'issuer', 'grant', 'clientAuth'];

/** The fields of `value` that look like a mistyped `known` one, each as a warning naming the one meant. */
function mistypedFields(value: Record<string, unknown>, known: readonly string[], where: string): string[] {
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const lower = key.toLowerCase();
    const meant = closestName(key, known) ?? known.find((name) => name.length >= 4 && lower.includes(name.toLowerCase()));
    if (meant !== undefined) found.push(`${where}.${key}: unknown field, ignored (did you mean "${meant}"?)`);
  }
  return found;
}

/** The document with the mistyped-looking fields of each profile (and its `oauth`), if any. */
function withUnknownFields(document: ProfilesDocument & { path: string }, raw: unknown): ProfilesDocument {
  const list = (Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.profiles) ? raw.profiles : []) as unknown[];
  const found = new Map<string, string[]>();
  list.forEach((entry, index) => {
    if (!isObject(entry) || typeof entry.name !== 'string') return;
    const where = `${document.path}: profiles[${index}]`;
    const fields = [...mistypedFields(entry, PROFILE_FIELDS, where), ...(isObject(entry.oauth) ? mistypedFields(entry.oauth, OAUTH_FIELDS, `${where}.oauth`) : [])];
    if (fields.length > 0) found.set(entry.name, fields);
  });
  return found.size > 0 ? { ...document, unknownFields: found } : document;
}

function validateProfile(entry: unknown, where: string, baseDir: string): Profile {
  if (!isObject(entry)) fail(where, 'an object');
  if (typeof entry.name !== 'string' || entry.name === '') fail(`${where}.name`, 'a non-empty string');
  const profile: Profile = {
    name: entry.name,
    variables: validateVariables(entry.variables, `${where}.variables`),
    headers: headerRecord(entry.headers, `${where}.headers`),
    baseDir,
  };
  const names = Object.keys(profile.headers);
  if (names.length > 0) profile.headerOrigins = Object.fromEntries(names.map((name) => [name.toLowerCase(), `${where}.headers.${name}`]));
  const oauth = validateOAuth(entry.oauth, `${where}.oauth`);
  if (oauth) profile.oauth = oauth;
  const tls = validateTls(entry.tls, `${where}.tls`);
  if (tls) profile.tls = tls;
  const auth = validateAuth(entry.auth, `${where}.auth`);
  if (auth) profile.auth = auth;
  const proxy = optionalString(entry.proxy, `${where}.proxy`);
  if (proxy !== undefined) profile.proxy = proxy;
  const noProxy = optionalString(entry.noProxy, `${where}.noProxy`);
  if (noProxy !== undefined) profile.noProxy = noProxy;
  if (entry.http2 !== undefined) {
    if (typeof entry.http2 !== 'boolean') fail(`${where}.http2`, 'true or false');
    profile.http2 = entry.http2;
  }
  if (entry.history !== undefined) {
    if (typeof entry.history !== 'boolean') fail(`${where}.history`, 'true or false');
    profile.history = entry.history;
  }
  return profile;
}

/** `-p NAME`, else `REQFLOW_PROFILE`, else the profile named `default`, else the first; none at all: an empty `default`. */
export function selectProfile(doc: ProfilesDocument, requested: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Profile {
  const wanted = requested ?? (env.REQFLOW_PROFILE || undefined);
  if (wanted !== undefined) {
    const found = doc.profiles.find((p) => p.name === wanted);
    if (found) return found;
    const names = doc.profiles.map((p) => p.name);
    throw new UsageError(`unknown profile "${wanted}"${doc.path ? ` in ${doc.path}` : ' (no .profiles.json found)'}`, {
      hint: names.length ? `available profiles: ${names.join(', ')}` : 'create a .profiles.json beside your request files, or pass --profiles PATH',
    });
  }
  return doc.profiles.find((p) => p.name === 'default') ?? doc.profiles[0] ?? { name: 'default', variables: {}, headers: {}, baseDir: resolve(cwd) };
}

/** The profiles file of a request in `requestDir`: `--profiles` (`given`, from `cwd`), else the one found (findProfilesFile). */
export async function profilesFileFor(requestDir: string, cwd: string, given?: string): Promise<string | undefined> {
  return given ? resolve(cwd, given) : findProfilesFile(requestDir, cwd);
}

/** Finds, loads and selects in one step, as `run` does. */
export async function resolveProfile(options: { requestDir: string; profilesPath?: string; profile?: string; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<{ profile: Profile; document: ProfilesDocument }> {
  const cwd = options.cwd ?? process.cwd();
  const path = await profilesFileFor(options.requestDir, cwd, options.profilesPath);
  const document: ProfilesDocument = path ? await loadProfiles(path) : { profiles: [] };
  return { profile: selectProfile(document, options.profile, options.env, cwd), document };
}
