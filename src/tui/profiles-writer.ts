import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { replaceIfUnchanged } from '../core/atomic-write.js';
import { UsageError } from '../core/errors/index.js';
import { lineColumn } from '../core/json-error.js';
import { profilesFrom } from '../core/profiles.js';
import { appendItem, member, removeMember, scanJson, setMember, type JsonNode } from './json-edit.js';

/** Values of one profile's `oauth` object to write; `''` removes the key, undefined leaves it alone. */
export type OAuthUpdate = Record<string, string | undefined>;

/** The document's value: JSON, or JSONC (comments, trailing commas) as the profiles loader reads it. */
export function readJson(text: string, path: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first || value === undefined) {
    const where = first ? `:${Object.values(lineColumn(text, first.offset)).join(':')}` : '';
    // The error names the place, never the text: a profiles file holds tokens.
    throw new UsageError(`cannot update ${path}${where}: it is not valid JSON (${first ? printParseErrorCode(first.error) : 'empty'})`, { hint: 'fix the file by hand first; reqflow never overwrites a file it cannot read' });
  }
  return value;
}

/** The profile array of the document: the root array, or `{"profiles": [...]}`. */
export function profileList(root: JsonNode, path: string): JsonNode {
  if (root.kind === 'array') return root;
  const profiles = member(root, 'profiles')?.value;
  if (profiles?.kind === 'array') return profiles;
  throw new UsageError(`cannot update ${path}: expected an array of profiles or {"profiles": [...]}`);
}

export function findProfile(text: string, list: JsonNode, name: string): JsonNode | undefined {
  if (list.kind !== 'array') return undefined;
  return list.items.find((item) => {
    const nameNode = member(item, 'name')?.value;
    return nameNode !== undefined && nameNode.kind === 'scalar' && JSON.parse(text.slice(nameNode.start, nameNode.end)) === name;
  });
}

/**
 * Applies an OAuth update to the text of a profiles file. Only the touched keys of the named
 * profile's `oauth` object change; a missing `oauth` object or profile is added.
 */
export function applyOAuthUpdate(text: string, path: string, profileName: string, update: OAuthUpdate): string {
  readJson(text, path);
  const wanted = Object.entries(update).filter(([, value]) => value !== undefined) as Array<[string, string]>;
  const oauthOf = (current: string): { profile: JsonNode; oauth: JsonNode | undefined } => {
    const profile = findProfile(current, profileList(scanJson(current), path), profileName) as JsonNode;
    return { profile, oauth: member(profile, 'oauth')?.value };
  };
  const list = profileList(scanJson(text), path);
  let result = findProfile(text, list, profileName) ? text : appendItem(text, list, { name: profileName });
  const { profile, oauth } = oauthOf(result);
  if (oauth === undefined || oauth.kind !== 'object') {
    const fresh = Object.fromEntries(wanted.filter(([, value]) => value !== ''));
    return setMember(result, profile, 'oauth', fresh);
  }
  for (const [key, value] of wanted) {
    const current = oauthOf(result).oauth as JsonNode;
    const existing = member(current, key)?.value;
    if (value === '') result = removeMember(result, current, key);
    else if (!existing || JSON.parse(result.slice(existing.start, existing.end)) !== value) result = setMember(result, current, key, value);
  }
  return result;
}

/** The top-level key of one profile that an edit may change (`oauth` from `O`, `variables` from `v`). */
export type ProfileKey = 'oauth' | 'variables';

/** What must stay equal: every other profile whole, and the touched profile outside `key`. */
function checkOnlyKeyChanged(before: unknown, after: unknown, profileName: string, key: ProfileKey, path: string): void {
  const list = (doc: unknown): Array<Record<string, unknown>> => (Array.isArray(doc) ? doc : ((doc as { profiles: unknown[] }).profiles ?? [])) as Array<Record<string, unknown>>;
  const without = (doc: unknown): unknown => list(doc).map((p) => (p.name === profileName ? { ...p, [key]: undefined } : p)).filter((p) => p.name !== profileName || Object.keys(p).some((k) => k !== 'name' && k !== key && p[k] !== undefined));
  const outside = (doc: unknown): unknown => (Array.isArray(doc) ? [] : { ...(doc as object), profiles: undefined });
  if (!isDeepStrictEqual(without(before), without(after)) || !isDeepStrictEqual(outside(before), outside(after))) {
    throw new UsageError(`refusing to write ${path}: the edit would change more than the ${key} of "${profileName}"`, { hint: 'this is a bug in reqflow; please report it' });
  }
}

/** How many times an edit is redone on a file another program keeps writing. */
const SAVE_ATTEMPTS = 5;

/**
 * Edits one profile's `key` in the profiles file: `apply` turns the file's text into the new
 * text (`text` is `[]` when there is no file yet). The result is validated as the loader
 * validates it and checked to change nothing but that key, then written atomically, keeping
 * the file's mode. A `.profiles.json` that is a symbolic link (kept in a dotfiles repository) is
 * edited where it points: a rename over the link would replace it with a copy, and the file the
 * user keeps would never see the edit. Returns the text written.
 */
export async function saveProfileEdit(path: string, profileName: string, key: ProfileKey, apply: (text: string) => string): Promise<string> {
  // Another program (an editor, git) may write the file while the edit is made: the edit is
  // redone on what it wrote, never written over it (a few times; then the user is told).
  for (let attempt = 1; ; attempt++) {
    let text: string | undefined;
    let mode = 0o644;
    let target = path;
    try {
      target = realpathSync(path);
      text = await readFile(target, 'utf8');
      mode = (await stat(target)).mode & 0o777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const original = text ?? '[]\n';
    const before = readJson(original, path);
    const updated = apply(original);
    const after = readJson(updated, path);
    profilesFrom(after, path);
    checkOnlyKeyChanged(before, after, profileName, key, path);
    if (await replaceIfUnchanged(target, updated, text, { mode })) return updated;
    if (attempt === SAVE_ATTEMPTS) throw new UsageError(`${path} kept changing while the edit was saved: not written`, { hint: 'try again once the other program is done with it' });
  }
}

/**
 * Saves a profile's OAuth settings into `.profiles.json` atomically, creating the file (or the
 * profile) when needed, and keeping the file's mode. Returns the text written.
 */
export function saveOAuthSettings(path: string, profileName: string, update: OAuthUpdate): Promise<string> {
  return saveProfileEdit(path, profileName, 'oauth', (text) => applyOAuthUpdate(text, path, profileName, update));
}
