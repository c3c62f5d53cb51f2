/**
 * Secrets are shown as `•••` in every log, `-v` output, `-o json` echo, error and TUI pane.
 */
import { basicCredentials, formsOf } from './secret-forms.js';
import { fieldLines, type HeaderValue, type RequestHeaders } from './headers.js';

export const MASK = '•••';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
const SECRET_WORDS = /token|secret|password|passwd|passphrase|key|signature|credential|auth/i;

/** True for `Authorization`, `Cookie`, `X-API-Key` and any name containing token/secret/password/key/signature. */
export function isSecretName(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || SECRET_WORDS.test(name);
}

/** A secret-named header's value, masked line by line. */
const masked = (value: string | readonly string[]): string | string[] => (typeof value === 'string' ? MASK : value.map(() => MASK));

export function maskHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = isSecretName(name) ? masked(value) : value;
  }
  return out;
}

/** Characters of a form that pick its bucket (every form is at least 4 characters long), 5 bits of each. */
const KEY = 3;
const KEY_BITS = 0x7fff;

/** The bucket of the `KEY` characters ending at `key`'s last one, rolled on by one character. */
const roll = (key: number, char: number): number => ((key << 5) ^ char) & KEY_BITS;

function keyOf(form: string): number {
  let key = 0;
  for (let at = 0; at < KEY; at++) key = roll(key, form.charCodeAt(at));
  return key;
}

/**
 * The forms to mask, indexed by their first characters: one pass over a text finds every form,
 * however many there are (a secret has a dozen forms, and the history scrubs every body).
 */
class FormIndex {
  private readonly used = new Uint8Array(KEY_BITS + 1);
  /**
   * Per bucket, its forms by length, the lengths longest first (the longest form that matches is
   * masked whole): a lookup costs one set test per length, not one comparison per form — a
   * private environment file of 200,000 values alike (`val000001`, …) fills one bucket.
   */
  private readonly buckets = new Map<number, { lengths: number[]; forms: Map<number, Set<string>> }>();
  add(forms: readonly string[]): void {
    for (const form of forms) {
      const key = keyOf(form);
      this.used[key] = 1;
      let bucket = this.buckets.get(key);
      if (bucket === undefined) this.buckets.set(key, (bucket = { lengths: [], forms: new Map() }));
      let same = bucket.forms.get(form.length);
      if (same === undefined) {
        bucket.forms.set(form.length, (same = new Set()));
        bucket.lengths.push(form.length);
        bucket.lengths.sort((a, b) => b - a);
      }
      same.add(form);
    }
  }
  /** `text` with every form replaced by the mask, leftmost first. */
  mask(text: string): string {
    if (this.buckets.size === 0) return text;
    let out = '';
    let from = 0;
    let key = 0;
    for (let end = 0; end < text.length; end++) {
      key = roll(key, text.charCodeAt(end));
      const at = end - KEY + 1;
      if (at < from || this.used[key] === 0) continue;
      const bucket = this.buckets.get(key);
      const length = bucket?.lengths.find((candidate) => bucket.forms.get(candidate)?.has(text.slice(at, at + candidate)));
      if (length === undefined) continue;
      out += text.slice(from, at) + MASK;
      from = at + length;
    }
    return from === 0 ? text : out + text.slice(from);
  }
}

/**
 * Replaces every occurrence of the known secret values in a text. Used on error messages and
 * URLs (an API key may travel in the query string).
 */
export function redact(text: string, secrets: Iterable<string>): string {
  const index = new FormIndex();
  for (const secret of secrets) if (secret.length >= 4) index.add(formsOf(secret)); // shorter ones would mangle ordinary text
  return index.mask(text);
}

/**
 * Masks the password of `scheme://user:password@host`, a user name written alone
 * (`scheme://TOKEN@host`: the credential of a token-authenticated proxy or API), and query
 * parameters whose names look secret (`?api_key=...`).
 */
export function maskUrl(text: string): string {
  // Up to the last `@` before the path, as the URL parser reads it (`user:p@ss@host`: the password is `p@ss`); `\` ends the authority too.
  const url = text.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#\\]*)@/i, (_all, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon < 0 ? MASK : `${userinfo.slice(0, colon + 1)}${MASK}`}@`;
  });
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = decodeURIComponentSafe(pair.slice(0, eq));
    return isSecretName(name) ? `${pair.slice(0, eq)}=${MASK}` : pair;
  });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

type Redact = (text: string) => string;

/** A URL as shown to the user: secret query parameters masked, known secret values scrubbed. */
export function displayUrl(url: string, redact?: Redact): string {
  const masked = maskUrl(url);
  return redact ? redact(masked) : masked;
}

/** How a header is shown: masked (a secret name), its URL masked (a redirect's target), or as it is. */
type HeaderKind = 'secret' | 'url' | 'plain';

/** How each header name was found to be shown: a caller that shows thousands of header sets (the history) keeps one. */
export type HeaderKinds = Map<string, HeaderKind>;

function headerKind(name: string): HeaderKind {
  // A redirect's target may carry a token in its query or userinfo.
  return isSecretName(name) ? 'secret' : URL_HEADERS.test(name) ? 'url' : 'plain';
}

/** Headers as shown to the user: secret names masked, known secret values scrubbed from the others. */
export function displayHeaders(headers: Record<string, string | string[] | undefined>, redact?: Redact, kinds?: HeaderKinds): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = displayHeaderValue(name, value, redact, kinds);
  return out;
}

/** One header's value as {@link displayHeaders} shows it: for a writer that serialises headers without copying them (the history). */
export function displayHeaderValue(name: string, value: string | readonly string[], redact?: Redact, kinds?: HeaderKinds): string | string[] {
  let kind = kinds?.get(name);
  if (kind === undefined) {
    kind = headerKind(name);
    kinds?.set(name, kind);
  }
  if (kind === 'secret') return masked(value);
  const shown = kind === 'url' ? (typeof value === 'string' ? maskUrl(value) : value.map(maskUrl)) : value;
  return redact ? (typeof shown === 'string' ? redact(shown) : shown.map(redact)) : (shown as string | string[]);
}

const URL_HEADERS = /^(location|content-location|refresh|link)$/i;

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Collects every value a run treats as secret, so that error messages can be scrubbed of them.
 * One per run; stages add what they learn (resolved secret variables, auth headers).
 */
export class SecretRegistry {
  private readonly values = new Set<string>();
  /** What `scrub` looks for, worked out once per secret (the history scrubs thousands of texts). */
  private readonly forms = new FormIndex();
  add(value: string | undefined): void {
    if (!value || value.length < 4 || this.values.has(value)) return;
    this.values.add(value);
    this.forms.add(formsOf(value));
  }
  addHeaderValue(name: string, value: string): void {
    if (isSecretName(name)) this.addCredentialHeader(value);
  }
  /** A header value that is a credential whatever the header's name (one an auth method set: `X-Proof`). */
  addCredentialHeader(value: string): void {
    this.add(value);
    const space = value.indexOf(' ');
    if (space > 0) this.add(value.slice(space + 1)); // "Bearer abc" → also "abc"
    // A token endpoint may echo a Basic header's client secret decoded.
    for (const credential of basicCredentials(value)) this.add(credential);
  }
  /** Every line of every secret-named header (see {@link addHeaderValue}); the others cost one name test each. */
  addHeaders(headers: Readonly<RequestHeaders>): void {
    for (const name in headers) {
      if (!isSecretName(name)) continue;
      for (const line of fieldLines(headers[name] as HeaderValue)) this.addHeaderValue(name, line);
    }
  }
  scrub(text: string): string {
    return this.forms.mask(text);
  }
  /** True when a text carries a known secret value (a header set from a secret variable). */
  carries(text: string): boolean {
    for (const secret of this.values) if (text.includes(secret)) return true;
    return false;
  }
  [Symbol.iterator](): Iterator<string> {
    return this.values[Symbol.iterator]();
  }
}
