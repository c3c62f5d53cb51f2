import { UsageError } from '../../core/errors/index.js';
import type { Profile } from '../../core/model.js';
import { isLoopbackHost } from '../../core/listen.js';

export type GrantName = 'authorization_code' | 'device_code' | 'client_credentials';

/** Endpoints a flow may need; each maps to the profile field that sets it. */
export type Endpoint = 'authorization' | 'token' | 'device' | 'revocation';
export const ENDPOINT_FIELD: Record<Endpoint, 'authUrl' | 'tokenUrl' | 'deviceUrl' | 'revocationUrl'> = { authorization: 'authUrl', token: 'tokenUrl', device: 'deviceUrl', revocation: 'revocationUrl' };

const DEFAULT_REDIRECT_URL = 'http://localhost:8080/callback';
/** Set to 1 to allow plain http:// OAuth endpoints on hosts other than this machine (test servers). */
const ALLOW_HTTP_ENV = 'REQFLOW_OAUTH_ALLOW_HTTP';

/** A profile's `oauth` object after `{{variables}}` are expanded and every field is checked. */
export interface OAuthSettings {
  profile: string;
  clientId: string;
  /** Absent or empty: a public client (PKCE). */
  clientSecret?: string;
  /** How the secret travels to the token endpoint: HTTP Basic (RFC 6749's default) or the form body. */
  clientAuth: 'basic' | 'post';
  scope?: string;
  authUrl?: string;
  tokenUrl?: string;
  deviceUrl?: string;
  /** Token revocation (RFC 7009), used by `oauth logout`. */
  revocationUrl?: string;
  /** OpenID discovery fills the endpoints not set above; also enables issuer (`iss`) checks. */
  issuer?: string;
  redirectUrl: string;
  grant: GrantName;
  /** Extra CAs for the authorization server: the profile's `tls.caFile` (see {@link readOAuthSettings}). */
  ca?: Buffer[];
}

const STRING_FIELDS = ['clientId', 'clientSecret', 'scope', 'authUrl', 'tokenUrl', 'deviceUrl', 'revocationUrl', 'issuer', 'redirectUrl', 'clientAuth'] as const;
const URL_FIELDS = ['authUrl', 'tokenUrl', 'deviceUrl', 'revocationUrl', 'issuer'] as const;

/** `profile "dev": oauth.tokenUrl`: how messages name a setting. */
export function field(profile: string, name: string): string {
  return `profile "${profile}": oauth.${name}`;
}

/** Reads `profile.oauth`, expanding `{{...}}` in each value (secrets can come from `{{env.X}}` or `$(cmd)` variables). */
export async function readOAuthSettings(profile: Profile, expand: (text: string) => Promise<string>): Promise<OAuthSettings> {
  const raw = profile.oauth;
  if (!raw) {
    throw new UsageError(`profile "${profile.name}" has no "oauth" settings`, {
      hint: 'add "oauth": {"clientId": "...", "authUrl": "...", "tokenUrl": "..."} (or "issuer") to the profile in .profiles.json',
    });
  }
  const values: Partial<Record<(typeof STRING_FIELDS)[number], string>> = {};
  for (const name of STRING_FIELDS) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new UsageError(`${field(profile.name, name)} must be a string`);
    const expanded = (await expand(value)).trim();
    if (expanded !== '') values[name] = expanded;
  }
  if (!values.clientId) throw new UsageError(`${field(profile.name, 'clientId')} is required`, { hint: 'set it to the client ID registered with your authorization server' });
  for (const name of URL_FIELDS) if (values[name] !== undefined) parseHttpUrl(values[name] as string, field(profile.name, name));
  const clientAuth = values.clientAuth ?? 'basic';
  if (clientAuth !== 'basic' && clientAuth !== 'post') throw new UsageError(`${field(profile.name, 'clientAuth')} must be "basic" or "post", got "${clientAuth}"`);
  const grant = (raw.grant as GrantName | undefined) ?? 'authorization_code';
  const settings: OAuthSettings = { profile: profile.name, clientId: values.clientId, clientAuth, grant, redirectUrl: values.redirectUrl ?? DEFAULT_REDIRECT_URL };
  for (const name of ['clientSecret', 'scope', 'authUrl', 'tokenUrl', 'deviceUrl', 'revocationUrl', 'issuer'] as const) if (values[name] !== undefined) settings[name] = values[name];
  if (grant === 'client_credentials' && !settings.clientSecret) {
    throw new UsageError(`${field(profile.name, 'clientSecret')} is required for grant "client_credentials"`, { hint: 'the client credentials grant authenticates the client itself with its secret' });
  }
  // A private CA in the profile's tls is trusted by the OAuth endpoints too (one place to set it).
  // Certificates of OAuth endpoints are always verified: insecureSkipVerify is for requests only.
  if (profile.tls?.caFile !== undefined) {
    const [{ resolvePath }, { profileTlsFile }, { loadCaFile }] = await Promise.all([import('../../core/resolve-path.js'), import('../auth-mtls/files.js'), import('../auth-mtls/trust.js')]);
    const path = resolvePath(await expand(profile.tls.caFile), profile.baseDir);
    settings.ca = [await loadCaFile(profileTlsFile(profile.name, 'caFile', path))];
  }
  return settings;
}

function parseHttpUrl(text: string, where: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${where} is not a valid URL: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${where} must be an http(s) URL, got "${text}"`);
  return url;
}

/**
 * OAuth credentials must not cross the network in clear text. Plain http:// is accepted for this
 * machine (a local identity server while developing) and, with REQFLOW_OAUTH_ALLOW_HTTP=1, for
 * any host (a test server). Returns true when the endpoint is plain http (openid-client must then
 * be told to allow it).
 */
export function checkTransport(url: string, where: string, env: NodeJS.ProcessEnv): boolean {
  const parsed = parseHttpUrl(url, where);
  if (parsed.protocol === 'https:') return false;
  if (isLoopbackHost(parsed.hostname) || env[ALLOW_HTTP_ENV] === '1') return true;
  throw new UsageError(`${where} uses plain http:// on ${parsed.host}: OAuth credentials and tokens must travel over https`, {
    hint: `use https://, or set ${ALLOW_HTTP_ENV}=1 for a test server you trust`,
  });
}

/** The redirect URL must be a loopback http:// URL: reqflow itself receives the callback there. */
export function parseRedirectUrl(settings: OAuthSettings): URL {
  const where = field(settings.profile, 'redirectUrl');
  const url = parseHttpUrl(settings.redirectUrl, where);
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${where} must be a loopback http:// URL (localhost, 127.0.0.1 or [::1]), got "${settings.redirectUrl}"`, {
      hint: `reqflow receives the browser's callback itself; register e.g. ${DEFAULT_REDIRECT_URL} with your authorization server`,
    });
  }
  return url;
}

export function fieldName(settings: OAuthSettings, endpoint: Endpoint): string {
  return field(settings.profile, ENDPOINT_FIELD[endpoint]);
}

/** RFC 6749 Appendix B's form encoding of a client's id or secret: stricter than encodeURIComponent (`-` as `%2D`), a space as `+`. */
function formEncoded(text: string): string {
  return encodeURIComponent(text).replace(/[-_.!~*'()]|%20/g, (char) => (char === '%20' ? '+' : `%${char.charCodeAt(0).toString(16).toUpperCase()}`));
}

/**
 * The client secret, and the forms in which HTTP Basic client authentication (the default) sends
 * it: form-encoded, then base64 of `id:secret` (RFC 6749 §2.3.1). All are registered as secrets: a
 * token endpoint quoting the header it was sent is masked too, whatever the secret's characters.
 */
export function clientSecretForms(settings: Pick<OAuthSettings, 'clientId' | 'clientSecret'>): string[] {
  const { clientId, clientSecret } = settings;
  if (clientSecret === undefined || clientSecret === '') return [];
  return [clientSecret, formEncoded(clientSecret), Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`).toString('base64')];
}
