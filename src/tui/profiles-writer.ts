import { readFile, stat } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../core/atomic-write.js';
import { UsageError } from '../core/errors/index.js';
import { parseProfiles } from '../core/profiles.js';
import { appendItem, member, removeMember, scanJson, setMember, type JsonNode } from './json-edit.js';

/** Values of one profile's `oauth` object to write; `''` removes the key, undefined leaves it alone. */
export type OAuthUpdate = Record<string, string | undefined>;

function readJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`cannot update ${path}: it is not valid JSON (${(error as Error).message})`, { hint: 'fix the file by hand first; reqflow never overwrites a file it cannot read' });
  }
}

/** The profile array of the document: the root array, or `{"profiles": [...]}`. */
function profileList(root: JsonNode, path: string): JsonNode {
  if (root.kind === 'array') return root;
  const profiles = member(root, 'profiles')?.value;
  if (profiles?.kind === 'array') return profiles;
  throw new UsageError(`cannot update ${path}: expected an array of profiles or {"profiles": [...]}`);
}

function findProfile(text: string, list: JsonNode, name: string): JsonNode | undefined {
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

/** What must stay equal: every other profile whole, and the touched profile outside `oauth`. */
function checkOnlyOAuthChanged(before: unknown, after: unknown, profileName: string, path: string): void {
  const list = (doc: unknown): Array<Record<string, unknown>> => (Array.isArray(doc) ? doc : ((doc as { profiles: unknown[] }).profiles ?? [])) as Array<Record<string, unknown>>;
  const without = (doc: unknown): unknown => list(doc).map((p) => (p.name === profileName ? { ...p, oauth: undefined } : p)).filter((p) => p.name !== profileName || Object.keys(p).some((k) => k !== 'name' && k !== 'oauth' && p[k] !== undefined));
  const outside = (doc: unknown): unknown => (Array.isArray(doc) ? [] : { ...(doc as object), profiles: undefined });
  if (!isDeepStrictEqual(without(before), without(after)) || !isDeepStrictEqual(outside(before), outside(after))) {
    throw new UsageError(`refusing to write ${path}: the edit would change more than the oauth settings of "${profileName}"`, { hint: 'this is a bug in reqflow; please report it' });
  }
}

/**
 * Saves a profile's OAuth settings into `.profiles.json` atomically, creating the file (or the
 * profile) when needed, and keeping the file's mode. Returns the text written.
 */
export async function saveOAuthSettings(path: string, profileName: string, update: OAuthUpdate): Promise<string> {
  let text: string | undefined;
  let mode = 0o644;
  try {
    text = await readFile(path, 'utf8');
    mode = (await stat(path)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const original = text ?? '[]\n';
  const updated = applyOAuthUpdate(original, path, profileName, update);
  parseProfiles(updated, path);
  checkOnlyOAuthChanged(readJson(original, path), readJson(updated, path), profileName, path);
  await writeFileAtomic(path, updated, { mode });
  return updated;
}
