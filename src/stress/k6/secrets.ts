/**
 * The secrets of the exported request as k6 environment variables: every value the run's
 * SecretRegistry knows (tokens, passwords, keys, auth headers), and the values of secret-named
 * headers and query parameters, becomes `__ENV.NAME` in the script — never its text — with the
 * `-e NAME=…` the user passes to k6.
 */
import { fieldLines, type RequestHeaders } from '../../core/headers.js';
import { isSecretName, type SecretRegistry } from '../../core/mask.js';

export interface EnvSecret {
  value: string;
  name: string;
  /** Where it goes, for the script's comment: `variable "token"`, `the Authorization header`. */
  where: string;
}

/** `api-key` → `API_KEY`. */
const envName = (text: string): string => {
  const name = text.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|(?<!_)_+$/g, '').toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `SECRET_${name}`;
};

function queryParams(url: string): Array<[string, string]> {
  try {
    return [...new URL(url).searchParams];
  } catch {
    return [];
  }
}

/**
 * The secrets to replace, each named: `variables` are the run's named values (-e, the
 * environment, the profile, the session) to name a secret after the variable that holds it.
 */
export function envSecrets(registry: SecretRegistry, request: { url: string; headers: RequestHeaders }, variables: ReadonlyArray<[string, string]>): EnvSecret[] {
  const found = new Map<string, string>(); // value → where it was found, when not a variable
  for (const value of registry) found.set(value, '');
  for (const [name, value] of Object.entries(request.headers)) {
    if (!isSecretName(name)) continue;
    for (const line of fieldLines(value)) {
      const space = line.indexOf(' ');
      // `Bearer abc`: the scheme stays in the script, the credential becomes the variable.
      const credential = space > 0 && /^[A-Za-z-]+$/.test(line.slice(0, space)) ? line.slice(space + 1).trim() : line;
      if (credential !== '') found.set(credential, name);
    }
  }
  for (const [name, value] of queryParams(request.url)) if (isSecretName(name) && value !== '') found.set(value, name);
  // The smallest pieces: `Bearer abc` goes out as `'Bearer ' + __ENV.TOKEN` when `abc` is known too.
  const values = [...found.keys()].filter((value) => ![...found.keys()].some((other) => other !== value && other.length > 0 && value.includes(other)));
  const taken = new Set<string>();
  const secrets: EnvSecret[] = [];
  for (const value of values.sort((a, b) => b.length - a.length)) {
    const variable = variables.find(([, v]) => v === value)?.[0];
    const header = found.get(value);
    const base = envName(variable ?? (header || 'secret'));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    secrets.push({ value, name, where: variable !== undefined ? `variable "${variable}"` : header ? `the ${header} value` : 'a secret value' });
  }
  return secrets;
}

/**
 * A text of the request as a JavaScript expression: string literals, with each secret (or its
 * URL-encoded form) replaced by its `__ENV` reference.
 */
export function jsText(text: string, secrets: readonly EnvSecret[]): string {
  const forms = secrets.flatMap((secret) => {
    const encoded = encodeURIComponent(secret.value);
    return [{ text: secret.value, js: `__ENV.${secret.name}` }, ...(encoded !== secret.value ? [{ text: encoded, js: `encodeURIComponent(__ENV.${secret.name})` }] : [])];
  });
  const parts: string[] = [];
  let rest = text;
  for (;;) {
    let best: { at: number; form: (typeof forms)[number] } | undefined;
    for (const form of forms) {
      const at = rest.indexOf(form.text);
      if (at >= 0 && (!best || at < best.at || (at === best.at && form.text.length > best.form.text.length))) best = { at, form };
    }
    if (!best) break;
    if (best.at > 0) parts.push(JSON.stringify(rest.slice(0, best.at)));
    parts.push(best.form.js);
    rest = rest.slice(best.at + best.form.text.length);
  }
  if (rest !== '' || parts.length === 0) parts.push(JSON.stringify(rest));
  return parts.join(' + ');
}
