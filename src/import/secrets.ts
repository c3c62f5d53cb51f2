/**
 * Credentials found in an imported request (an `Authorization` or `Cookie` header, a header or
 * query parameter whose name says it is secret) move to `http-client.private.env.json`; the
 * request keeps a `{{variable}}` in their place. The same rule as reqflow's masking decides what
 * is secret (`isSecretName`).
 */
import { isSecretName } from '../core/mask.js';
import { hasHeaderControl, hasTemplate } from './http-text.js';
import { camelName, type ImportVariables } from './variables.js';

const TEMPLATE_ONLY = /^\{\{[^{}]+\}\}$/;

/** `Basic dXNlcjpwYXNz` → user and password, when it is that. */
function decodeBasic(token: string): { user: string; password: string } | undefined {
  if (!/^[A-Za-z0-9+/]+=*$/.test(token)) return undefined;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  // The shorthand reads the user name up to the first space: one without spaces only.
  if (colon <= 0 || /[\s\uFFFD]/.test(text.slice(0, colon)) || Buffer.from(text, 'utf8').toString('base64') !== token) return undefined;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** An `Authorization` value with its credential as a variable. */
function authorizationValue(value: string, variables: ImportVariables): string {
  const [, scheme = '', credential = ''] = /^(\S+)\s+(.+)$/s.exec(value.trim()) ?? [];
  if (/^basic$/i.test(scheme)) {
    const basic = decodeBasic(credential);
    // reqflow's shorthand: it encodes `user password` itself (docs/auth.md).
    if (basic) return `${scheme} ${basic.user} {{${variables.secret('password', basic.password)}}}`;
  }
  if (/^(bearer|token)$/i.test(scheme)) return `${scheme} {{${variables.secret('token', credential)}}}`;
  return `{{${variables.secret('authorization', value)}}}`;
}

/** The value to write for a header: a variable in place of a credential. */
export function headerValue(name: string, value: string, variables: ImportVariables): string {
  // A value with a template was written by the importer (or the source) already. One holding a
  // control character stays, for the renderer to refuse naming the header (a variable hid it).
  if (hasTemplate(value) || !isSecretName(name) || value === '' || hasHeaderControl(value)) return value;
  const lower = name.toLowerCase();
  if (lower === 'authorization') return authorizationValue(value, variables);
  return `{{${variables.secret(lower === 'cookie' ? 'cookie' : camelName(name), value)}}}`;
}

/**
 * The URL with its password (`https://user:pw@host`, up to the last `@` before the path, as the
 * URL parser and maskUrl read it) as a variable: `https://user:{{password}}@host`, sent as written.
 */
function withoutUserinfoPassword(url: string, variables: ImportVariables): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#\\:@]*:)([^/?#\\]*)@/i, (all, before: string, password: string) =>
    password === '' || hasTemplate(password) ? all : `${before}{{${variables.secret('password', password)}}}@`,
  );
}

/** The URL with its password and the values of secret-looking query parameters (`api_key=…`) as variables. */
export function urlWithoutSecrets(written: string, variables: ImportVariables): string {
  const url = withoutUserinfoPassword(written, variables);
  const query = url.indexOf('?');
  if (query < 0) return url;
  const hash = url.indexOf('#', query);
  const end = hash < 0 ? url.length : hash;
  const params = url
    .slice(query + 1, end)
    .split('&')
    .map((param) => {
      const eq = param.indexOf('=');
      if (eq < 0) return param;
      const name = param.slice(0, eq);
      const value = param.slice(eq + 1);
      let decoded: string;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        decoded = name;
      }
      if (!isSecretName(decoded) || value === '' || TEMPLATE_ONLY.test(value)) return param;
      // The value is kept as it was written (percent-encoded), so it is sent unchanged.
      return `${name}={{${variables.secret(camelName(decoded), value)}}}`;
    });
  return `${url.slice(0, query)}?${params.join('&')}${url.slice(end)}`;
}
