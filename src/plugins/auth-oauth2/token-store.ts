import { codePointName } from '../../core/code-point.js';
import { ExitCode, ReqflowError } from '../../core/errors/index.js';
import type { Session } from '../../core/model.js';
import type { GrantName } from './settings.js';

/** The access token lives in the session variable `token`, so `{{token}}` works in any request. */
export const TOKEN_VARIABLE = 'token';
/** Everything else about it is session data under this key. */
export const OAUTH_SESSION_KEY = 'oauth';
/** A token that expires within this margin is renewed before the request, not after a 401. */
const RENEW_MARGIN_MS = 30_000;

export interface StoredOAuth {
  grant: GrantName;
  clientId: string;
  tokenType: string;
  /** ISO time the token was obtained. */
  obtainedAt: string;
  /** ISO time the access token expires; absent when the server did not say (`expires_in`). */
  expiresAt?: string;
  refreshToken?: string;
  /** Granted scopes, space-separated. */
  scope?: string;
  /**
   * The authorization server that issued the tokens, as the profile named it then (`oauth.tokenUrl`,
   * `oauth.issuer`): the refresh token goes back to it only. Absent in an earlier reqflow's entry.
   */
  tokenUrl?: string;
  issuer?: string;
}

/** What names a profile's authorization server: its token endpoint, or the issuer it is discovered from. */
export type Authority = Pick<StoredOAuth, 'tokenUrl' | 'issuer'>;

/** What a token endpoint answered (the fields reqflow keeps). */
export interface TokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

export function readStored(session: Session): StoredOAuth | undefined {
  return storedOAuth(session.getData(OAUTH_SESSION_KEY));
}

/** A session's `oauth` entry as reqflow stored it; undefined when it is not one. */
export function storedOAuth(value: unknown): StoredOAuth | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = value as Record<string, unknown>;
  // Every field of its type: a session file edited by hand (a refresh token that is a number) is no token reqflow stored —
  // read as one, `oauth status` and a refresh were internal errors. Such an entry is as none: log in again.
  const text = (key: keyof StoredOAuth, optional: boolean): boolean => typeof data[key] === 'string' || (optional && data[key] === undefined);
  // Only `grant` must be there, as before: an entry an earlier reqflow wrote is read as it was.
  const whole = text('grant', false) && (['clientId', 'tokenType', 'obtainedAt', 'expiresAt', 'refreshToken', 'scope', 'tokenUrl', 'issuer'] as const).every((key) => text(key, true));
  return whole ? (data as unknown as StoredOAuth) : undefined;
}

/**
 * Saves a token endpoint's answer in the session. A refresh that returns no new refresh token or
 * scope keeps the previous ones (RFC 6749 §6).
 */
export function storeTokens(session: Session, response: TokenResponse, meta: { grant: GrantName; clientId: string; authority: Authority; requestedScope?: string }, previous?: StoredOAuth, now = Date.now()): StoredOAuth {
  checkToken('access_token', response.access_token);
  if (response.refresh_token !== undefined) checkToken('refresh_token', response.refresh_token);
  const stored: StoredOAuth = {
    grant: meta.grant,
    clientId: meta.clientId,
    // openid-client lower-cases it; `Bearer` is how it is written in the Authorization header.
    tokenType: !response.token_type || response.token_type.toLowerCase() === 'bearer' ? 'Bearer' : response.token_type,
    obtainedAt: new Date(now).toISOString(),
  };
  if (typeof response.expires_in === 'number' && Number.isFinite(response.expires_in)) stored.expiresAt = new Date(now + lifetimeMs(response.expires_in)).toISOString();
  const refreshToken = response.refresh_token ?? previous?.refreshToken;
  if (refreshToken) stored.refreshToken = refreshToken;
  const scope = response.scope ?? previous?.scope ?? meta.requestedScope;
  if (scope) stored.scope = scope;
  if (meta.authority.tokenUrl !== undefined) stored.tokenUrl = meta.authority.tokenUrl;
  if (meta.authority.issuer !== undefined) stored.issuer = meta.authority.issuer;
  session.set(TOKEN_VARIABLE, response.access_token);
  session.setData(OAUTH_SESSION_KEY, stored);
  return stored;
}

/** The authorization server the settings name: what stored tokens record, and are compared with. */
export function authorityOf(settings: Authority): Authority {
  return { ...(settings.tokenUrl !== undefined ? { tokenUrl: settings.tokenUrl } : {}), ...(settings.issuer !== undefined ? { issuer: settings.issuer } : {}) };
}

/**
 * The server that issued the stored tokens, when the profile names another one now (its
 * `oauth.tokenUrl` or `oauth.issuer` changed, or is a template that `--env` or `-e` resolves to
 * another server): their refresh token must not be sent there, nor revoked there — it would hand
 * one server's credential to another. Undefined when it is the same, or when the entry recorded
 * none (an earlier reqflow's: taken as the profile's).
 */
export function issuedElsewhere(stored: StoredOAuth, now: Authority): string | undefined {
  if (stored.tokenUrl === undefined && stored.issuer === undefined) return undefined;
  if (stored.tokenUrl === now.tokenUrl && stored.issuer === now.issuer) return undefined;
  return stored.tokenUrl ?? stored.issuer;
}

/**
 * The longest lifetime kept: 100 years. RFC 6749 sets no upper bound on `expires_in`, and a server
 * may mean "never expires" by a huge one (`1e13`), but past about 275,000 years from 1970 no date
 * can hold the expiry (`Invalid time value`): such a token is valid, so it is kept as long-lived.
 */
const MAX_LIFETIME_SECONDS = 100 * 365.25 * 24 * 60 * 60;

/** A server's `expires_in` (a finite number of seconds, not negative: openid-client checks) in milliseconds, clamped. */
function lifetimeMs(expiresIn: number): number {
  return Math.min(Math.max(expiresIn, 0), MAX_LIFETIME_SECONDS) * 1000;
}

/** What a token may hold (RFC 6749 Appendix A: VSCHAR): a line break or an escape is no token, and could not go in a header. */
const NOT_IN_TOKEN = /[^\x20-\x7e]/;

/** A token endpoint's answer whose token holds what no token may: exit 6, nothing stored (it would fail every request after). */
function checkToken(field: string, value: string): void {
  const bad = NOT_IN_TOKEN.exec(value)?.[0];
  if (bad === undefined) return;
  throw new ReqflowError(`the token endpoint's ${field} holds ${codePointName(bad)}, which a token cannot: not a token response`, { exitCode: ExitCode.auth, hint: "check the profile's oauth.tokenUrl (or oauth.issuer): nothing was stored" });
}

/** Removes the access token and everything stored with it. True when there was something to remove. */
export function clearTokens(session: Session): boolean {
  const had = session.get(TOKEN_VARIABLE) !== undefined || readStored(session) !== undefined;
  session.delete(TOKEN_VARIABLE);
  session.setData(OAUTH_SESSION_KEY, undefined);
  return had;
}

/** Milliseconds until the access token expires (negative: expired); undefined when unknown. */
export function msUntilExpiry(stored: Pick<StoredOAuth, 'expiresAt'> | undefined, now = Date.now()): number | undefined {
  if (!stored?.expiresAt) return undefined;
  const at = Date.parse(stored.expiresAt);
  return Number.isNaN(at) ? undefined : at - now;
}

export function expiresSoon(stored: Pick<StoredOAuth, 'expiresAt'> | undefined, now = Date.now()): boolean {
  const left = msUntilExpiry(stored, now);
  return left !== undefined && left <= RENEW_MARGIN_MS;
}

/** "59 min", "2 h 5 min", "45 s". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/** "expires in 59 min" / "expired 3 min ago" / "expiry unknown". */
export function describeExpiry(stored: Pick<StoredOAuth, 'expiresAt'> | undefined, now = Date.now()): string {
  const left = msUntilExpiry(stored, now);
  if (left === undefined) return 'expiry unknown';
  return left > 0 ? `expires in ${formatDuration(left)}` : `expired ${formatDuration(left)} ago`;
}
