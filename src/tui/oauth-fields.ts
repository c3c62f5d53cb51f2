import type { OAuthSettings } from '../core/model.js';

/** The grants `o` can run; the form's grant field cycles through them. */
export const GRANTS = ['authorization_code', 'client_credentials', 'device_code'] as const;

/** The fields of the `O` form, in order: the spec's `oauth` object (`grant` is a choice, not typed). */
export const OAUTH_FIELDS = [
  { key: 'authUrl', label: 'Authorization URL', secret: false, placeholder: 'https://auth.example.com/authorize' },
  { key: 'tokenUrl', label: 'Token URL', secret: false, placeholder: 'https://auth.example.com/token' },
  { key: 'clientId', label: 'Client ID', secret: false, placeholder: 'required' },
  { key: 'clientSecret', label: 'Client secret', secret: true, placeholder: 'empty: public client (PKCE)' },
  { key: 'scope', label: 'Scope', secret: false, placeholder: 'openid profile (space-separated)' },
  { key: 'redirectUrl', label: 'Redirect URL', secret: false, placeholder: 'http://localhost:8080/callback' },
  { key: 'grant', label: 'Grant type', secret: false, placeholder: 'authorization_code' },
  { key: 'deviceUrl', label: 'Device auth URL', secret: false, placeholder: 'device_code only: https://auth.example.com/device' },
] as const;

export type OAuthFieldKey = (typeof OAUTH_FIELDS)[number]['key'];
export type OAuthForm = Record<OAuthFieldKey, string>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The form's starting values: the profile's current settings. */
export function formFromSettings(settings: OAuthSettings | undefined): OAuthForm {
  const get = (key: OAuthFieldKey): string => {
    const value = settings?.[key];
    return typeof value === 'string' ? value : key === 'grant' ? 'authorization_code' : '';
  };
  return Object.fromEntries(OAUTH_FIELDS.map((field) => [field.key, get(field.key)])) as OAuthForm;
}

function urlProblem(value: string): string | undefined {
  if (value.includes('{{')) return undefined; // a template: checked when the flow resolves it
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'must be an http(s) URL';
}

/**
 * Problems of the form, by field (empty when it can be saved). Endpoints are required unless
 * the profile uses discovery (`issuer`) or a grant that does not need them.
 */
export function validateOAuthForm(form: OAuthForm, existing: OAuthSettings | undefined): Partial<Record<OAuthFieldKey, string>> {
  const problems: Partial<Record<OAuthFieldKey, string>> = {};
  const discovery = typeof existing?.issuer === 'string' && existing.issuer !== '';
  const grant = form.grant || existing?.grant || 'authorization_code';
  if (form.clientId.trim() === '') problems.clientId = 'is required';
  const needs: Record<'authUrl' | 'tokenUrl' | 'deviceUrl', boolean> = { authUrl: !discovery && grant === 'authorization_code', tokenUrl: !discovery, deviceUrl: !discovery && grant === 'device_code' };
  for (const key of ['authUrl', 'tokenUrl', 'deviceUrl'] as const) {
    if (form[key] === undefined) continue;
    const value = form[key].trim();
    if (value === '') {
      if (needs[key]) problems[key] = discovery ? 'is required' : 'is required (or set "issuer" in the profile for discovery)';
      continue;
    }
    const problem = urlProblem(value);
    if (problem) problems[key] = problem;
  }
  const redirect = form.redirectUrl.trim();
  if (redirect !== '' && !redirect.includes('{{')) {
    const problem = urlProblem(redirect);
    if (problem) problems.redirectUrl = problem;
    else if (!LOOPBACK.has(new URL(redirect).hostname)) problems.redirectUrl = 'must point at this machine (localhost or 127.0.0.1): the callback server listens there';
  }
  for (const field of OAUTH_FIELDS) {
    if (/[\u0000-\u001f]/.test(form[field.key] ?? '')) problems[field.key] = 'contains control characters';
  }
  return problems;
}

/**
 * Trimmed values; an empty field removes the key from the profile. The default grant is not
 * written into a profile that did not name one.
 */
export function updateFromForm(form: OAuthForm, existing: OAuthSettings | undefined): Record<OAuthFieldKey, string | undefined> {
  const out = {} as Record<OAuthFieldKey, string | undefined>;
  for (const field of OAUTH_FIELDS) out[field.key] = field.secret ? form[field.key] : form[field.key].trim();
  if (form.grant === 'authorization_code' && existing?.grant === undefined) out.grant = undefined;
  return out;
}

/** The grant after (`step` 1) or before (-1) `current`, wrapping around. */
export function nextGrant(current: string, step: 1 | -1): string {
  const index = GRANTS.indexOf(current as (typeof GRANTS)[number]);
  return GRANTS[(Math.max(0, index) + step + GRANTS.length) % GRANTS.length] as string;
}
