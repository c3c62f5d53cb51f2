import { visible } from '../../report/render/visible.js';
import { MASK } from '../../core/mask.js';
import type { Session } from '../../core/model.js';
import { TOKEN_VARIABLE, clearTokens, describeExpiry, msUntilExpiry, readStored, type StoredOAuth } from './token-store.js';

export interface OAuthStatus {
  profile: string;
  /** A token is stored and usable now (valid, or renewable before the next request). */
  usable: boolean;
  /** The access token, or `•••` unless asked to show it; absent when there is none. */
  token?: string;
  grant?: StoredOAuth['grant'];
  tokenType?: string;
  obtainedAt?: string;
  expiresAt?: string;
  /** Seconds until expiry (negative: expired). */
  expiresIn?: number;
  expired: boolean;
  refreshable: boolean;
  scopes: string[];
}

/** What `reqflow oauth status` (and the TUI) shows about a profile's token. Never reveals it unless `showToken`. */
export function oauthStatus(profile: string, session: Session, options: { showToken?: boolean; now?: number } = {}): OAuthStatus {
  const token = session.get(TOKEN_VARIABLE);
  const stored = readStored(session);
  const left = msUntilExpiry(stored, options.now);
  const expired = left !== undefined && left <= 0;
  const refreshable = stored?.refreshToken !== undefined || stored?.grant === 'client_credentials';
  const status: OAuthStatus = {
    profile,
    usable: token !== undefined && (!expired || refreshable),
    expired,
    refreshable,
    scopes: stored?.scope ? stored.scope.split(/\s+/).filter(Boolean) : [],
  };
  if (token !== undefined) status.token = options.showToken ? token : MASK;
  if (stored) {
    status.grant = stored.grant;
    status.tokenType = stored.tokenType;
    status.obtainedAt = stored.obtainedAt;
    if (stored.expiresAt) status.expiresAt = stored.expiresAt;
  }
  if (left !== undefined) status.expiresIn = Math.round(left / 1000);
  return status;
}

/**
 * The same facts in a few words, for the TUI's status bar: `none`, `set (no expiry)`,
 * `valid for 42 min`, `expired (refreshes on next request)`, `expired`.
 */
export function shortStatus(status: OAuthStatus): string {
  if (status.token === undefined) return 'none';
  if (status.expiresIn === undefined) return 'set (no expiry)';
  if (!status.expired) {
    const minutes = Math.floor(status.expiresIn / 60);
    return minutes >= 1 ? `valid for ${minutes} min` : 'valid for <1 min';
  }
  if (!status.refreshable) return 'expired';
  return status.grant === 'client_credentials' ? 'expired (renewed on next request)' : 'expired (refreshes on next request)';
}

/** The status as aligned `key: value` lines. */
export function formatStatus(status: OAuthStatus, now = Date.now()): string {
  const rows: Array<[string, string]> = [['profile', status.profile]];
  if (status.token === undefined) {
    rows.push(['token', 'none']);
  } else {
    rows.push(['token', status.token]);
    if (status.grant) rows.push(['grant', status.grant]);
    const expiry = describeExpiry(status, now);
    rows.push(['expires', status.expiresAt ? `${expiry} (${status.expiresAt})` : expiry]);
    rows.push(['refresh', status.refreshable ? (status.grant === 'client_credentials' ? 'automatic (client credentials)' : 'yes (refresh token stored)') : 'no']);
    rows.push(['scopes', status.scopes.length ? visible(status.scopes.join(' ')) : '(none reported)']); // the server's text: its controls made visible
  }
  const width = Math.max(...rows.map(([key]) => key.length)) + 1;
  return `${rows.map(([key, value]) => `${`${key}:`.padEnd(width)} ${value}`).join('\n')}\n`;
}

/** Forgets the profile's tokens (access token, refresh token, expiry, scopes). True when there were any. */
export async function logout(session: Session): Promise<boolean> {
  const had = clearTokens(session);
  if (had) await session.save();
  return had;
}
