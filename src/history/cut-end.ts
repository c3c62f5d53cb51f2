/**
 * The end of a value the history cut (`cap-exchange.ts`), after masking: a secret that the cut
 * split in two is not masked (only its beginning is kept, and the scrub looks for whole secrets),
 * so an end that begins a known secret — or any form of one — is dropped.
 */
import { formsOf } from '../core/secret-forms.js';

/**
 * The length of the longest end of `text` that is a beginning of `form` shorter than `form` (a
 * whole one was masked already). KMP: linear in both, whatever repeats in them.
 */
export function splitSecretLength(text: string, form: string): number {
  const length = Math.min(form.length - 1, text.length);
  if (length <= 0) return 0;
  const fail = new Int32Array(length);
  for (let at = 1, matched = 0; at < length; at++) {
    while (matched > 0 && form.charCodeAt(at) !== form.charCodeAt(matched)) matched = fail[matched - 1] as number;
    if (form.charCodeAt(at) === form.charCodeAt(matched)) matched++;
    fail[at] = matched;
  }
  // Only the last `length` characters can hold such an end.
  let matched = 0;
  for (let at = text.length - length; at < text.length; at++) {
    while (matched > 0 && (matched === length || text.charCodeAt(at) !== form.charCodeAt(matched))) matched = fail[matched - 1] as number;
    if (text.charCodeAt(at) === form.charCodeAt(matched)) matched++;
  }
  return matched;
}

/** What drops the beginning of a split secret from the end of a cut text; the forms are worked out once, on the first cut text. */
export function cutEnd(secrets: Iterable<string>): (text: string) => string {
  let forms: string[] | undefined;
  return (text) => {
    forms ??= [...new Set([...secrets].flatMap(formsOf))];
    let drop = 0;
    for (const form of forms) drop = Math.max(drop, splitSecretLength(text, form));
    return text.slice(0, text.length - drop);
  };
}
