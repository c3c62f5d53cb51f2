/**
 * Does a run need the chaining state (chain.ts) at all? Apart from it, so that the common run
 * — plain requests, no checks, scripts, references or chaining annotations — never loads it.
 */
import type { Profile } from '../core/profile-model.js';
import type { RequestFile } from '../pipeline/request-file.js';
import { chainingAnnotation } from './chain-annotations.js';

/** `{{word.`: a template that may read a request (`{{login.response.body.$.token}}`). */
const TEMPLATE_HEAD = /\{\{\s*([\w-]+)\./g;

/**
 * The texts of a run, beyond its request files, whose templates may read a request: the
 * `--env` environment's values and the profile's (headers, variables, auth settings). A value
 * there is resolved wherever a request uses it, so what it names must be kept when it runs.
 */
export function runTexts(environment: Readonly<Record<string, string>> | undefined, profile: Profile | undefined): string[] {
  const texts = environment ? Object.values(environment).filter((value) => value.includes('{{')) : [];
  const profileText = profile ? JSON.stringify(profile) : '';
  if (profileText.includes('{{')) texts.push(profileText);
  return texts;
}

/** The `{{word.` heads of texts: names that may be requests. */
export function templateHeads(texts: Iterable<string>): Set<string> {
  const heads = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(TEMPLATE_HEAD)) heads.add(match[1] as string);
  return heads;
}

/**
 * A single request chains only through what it says itself. A file of several needs a chain when
 * one of its requests may chain (`mayRefer`, recorded as the parser saw them: `linked`) or a
 * run-level text names something that may be a request; without that record (requests a caller
 * listed), it always gets one.
 */
export function needsChain(requests: RequestFile, texts: () => readonly string[]): boolean {
  if (requests.count === 1) {
    const spec = requests.spec(0);
    return spec.chain !== undefined || Object.keys(spec.annotations).some(chainingAnnotation);
  }
  if (!requests.linked) return true;
  return requests.linked.length > 0 || templateHeads(texts()).size > 0;
}
