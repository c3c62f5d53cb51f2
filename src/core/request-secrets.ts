/**
 * Values a request writes under secret-looking names — a URL's password, `?api_key=…` in its URL,
 * `"password": …` or `client_secret=…` in its body — registered as secrets, as a secret
 * variable's value is: wherever they turn up again (a server echoing them in its answer, a
 * check's message, `-v`, `--as curl`, the history, a report) they are masked, not only where
 * they were written. Secret-named headers are registered by the pipeline (`addHeaders`).
 */
import { fieldLines, type HeaderValue, type RequestHeaders } from './headers.js';
import { MASK, isSecretName, type SecretRegistry } from './mask.js';
import { formDecoded, maskSecretFields } from './mask-fields.js';

/** A body past this is not scanned (the history keeps 64 KiB of it; uploads are not forms of credentials). */
const MAX_SCANNED_BODY = 1024 * 1024;

/**
 * A name that holds a credential, read word by word (`api_key`, `apiKey`, `client_secret`,
 * `accessToken`): `isSecretName` masks a field in place by any name containing `key` or `auth`,
 * but a value learnt is masked everywhere, so `keyword`, `author` or `isAuthenticated` must not
 * make `apple` or `John Smith` a secret.
 */
function holdsCredential(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
  return words.some((word) => /(token|secret|passw(or)?d|passphrase|apikey|signature|credentials?)$|^(key|auth|authorization|pwd)$/.test(word));
}

/** A value worth masking wherever it appears: not `true`, `null` or a number, and long enough not to hit ordinary words. */
const credentialValue = (value: string): boolean => value.length >= 6 && !/^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(value);

const learn = (secrets: SecretRegistry, name: string, value: string): void => {
  if (holdsCredential(name) && credentialValue(value)) secrets.add(value);
};


export function learnRequestSecrets(secrets: SecretRegistry, url: string, body: string | Uint8Array | undefined): void {
  // `https://user:password@host/`: the password (the URL is shown masked; a k6 export or an echo would not be).
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(url)?.[1];
  const colon = userinfo?.indexOf(':') ?? -1;
  if (userinfo !== undefined && colon >= 0) secrets.add(formDecoded(userinfo.slice(colon + 1)));
  const query = url.indexOf('?');
  if (query >= 0) {
    const end = url.indexOf('#', query);
    for (const pair of url.slice(query + 1, end < 0 ? undefined : end).split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0) learn(secrets, formDecoded(pair.slice(0, eq)), formDecoded(pair.slice(eq + 1)));
    }
  }
  if (body === undefined || body.length === 0 || body.length > MAX_SCANNED_BODY) return;
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  maskSecretFields(text, (name, value) => {
    learn(secrets, name, value);
    return MASK;
  });
}

/**
 * The headers the auth stage set or changed (`before` is the request's headers ahead of it): each
 * is a credential whatever its name — `# @auth custom`'s `X-Proof` and `X-Timestamp` as much as
 * `Authorization`. Their values become secrets (masked in `-v`, `--dry-run`, `--as`, the history,
 * errors); the names, lower-cased, are returned for the send stage, which never carries them to
 * another origin. Undefined when the stage set none.
 */
export function learnAuthHeaders(secrets: SecretRegistry, before: Readonly<RequestHeaders>, after: Readonly<RequestHeaders>): ReadonlySet<string> | undefined {
  let names: Set<string> | undefined;
  for (const name in after) {
    const value = after[name] as HeaderValue;
    if (before[name] === value) continue;
    for (const line of fieldLines(value)) secrets.addCredentialHeader(line);
    (names ??= new Set()).add(name.toLowerCase());
  }
  return names;
}

/**
 * A header that holds a credential, by the one rule both uses share: reqflow never carries it to
 * another origin when it follows a redirect (the send stage's `isSecretHeader`), and `--as curl`
 * never hands it to curl's `-L`, which would (src/report/as-curl.ts). A secret-looking name, one
 * the auth stage set (`authHeaders`, lower-cased), or a value that carries a known secret.
 */
export function isCredentialHeader(name: string, value: string, authHeaders: ReadonlySet<string> | undefined, secrets: Pick<SecretRegistry, 'carries'>): boolean {
  return isSecretName(name) || authHeaders?.has(name.toLowerCase()) === true || secrets.carries(value);
}
