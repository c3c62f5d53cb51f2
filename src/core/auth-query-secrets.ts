/**
 * The query parameters the auth stage added (`# @auth custom`'s `"query"`, an API key sent
 * `"in": "query"`, a third party's signature): credentials whatever their names, as the headers
 * it sets are (`learnAuthHeaders`). Their values become secrets, so that `?sig=…` shows `•••` in
 * `-v`, `--dry-run`, `--as`, `-o json`, errors and the history, and so does the value where it
 * turns up again under another name (a server's `Location: …?ref=…`, an error body quoting it).
 * Loaded only for a request whose URL the auth stage changed.
 */
import { formDecoded } from './mask-fields.js';
import type { SecretRegistry } from './mask.js';

/** The `name=value` pieces of a URL's query, as written (no fragment). */
function queryPairs(url: string): string[] {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const question = base.indexOf('?');
  return question < 0 ? [] : base.slice(question + 1).split('&');
}

/** Registers the value of every query parameter `after` has that `before` (the URL ahead of the auth stage) had not. */
export function learnAuthQuery(secrets: SecretRegistry, before: string, after: string): void {
  const earlier = new Map<string, number>();
  for (const pair of queryPairs(before)) earlier.set(pair, (earlier.get(pair) ?? 0) + 1);
  for (const pair of queryPairs(after)) {
    const left = earlier.get(pair) ?? 0;
    if (left > 0) {
      earlier.set(pair, left - 1); // the request's own parameter, judged by its name as before
      continue;
    }
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const value = pair.slice(eq + 1);
    // As written and decoded: the registry masks each one's encoded forms besides (secret-forms.ts).
    secrets.add(value);
    secrets.add(formDecoded(value));
  }
}
