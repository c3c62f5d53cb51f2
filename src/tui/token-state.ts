import type { Session } from '../core/model.js';

export type TokenState =
  | { kind: 'none' }
  /** A token without a known expiry (extracted from a login response, or set by hand). */
  | { kind: 'present' }
  | { kind: 'valid'; expiresAt: number; minutesLeft: number }
  | { kind: 'expired'; expiresAt: number; refreshable: boolean };

/** `expiresAt` as the OAuth plugin stores it: epoch milliseconds, epoch seconds or an ISO date. */
function expiryMillis(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string' && value !== '') {
    const parsed = /^\d+$/.test(value) ? expiryMillis(Number(value)) : Date.parse(value);
    return parsed !== undefined && Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/**
 * The token state of a session: the token is the session variable `token` (`{{token}}`, set by
 * the OAuth plugin or extracted from a login response); the OAuth plugin keeps its expiry and
 * refresh token in the session data `oauth`.
 */
export function tokenState(session: Session, now: number = Date.now()): TokenState {
  const oauth = session.getData<Record<string, unknown>>('oauth');
  const expiresAt = oauth && typeof oauth === 'object' ? expiryMillis(oauth.expiresAt) : undefined;
  const hasAccess = session.get('token') !== undefined;
  if (expiresAt !== undefined && hasAccess) {
    if (expiresAt <= now) return { kind: 'expired', expiresAt, refreshable: typeof oauth?.refreshToken === 'string' && oauth.refreshToken !== '' };
    return { kind: 'valid', expiresAt, minutesLeft: Math.floor((expiresAt - now) / 60_000) };
  }
  return hasAccess ? { kind: 'present' } : { kind: 'none' };
}

/** `none`, `valid for 42 min`, `expired` — as the status bar shows it. */
export function describeTokenState(state: TokenState): string {
  switch (state.kind) {
    case 'none':
      return 'none';
    case 'present':
      return 'set (no expiry)';
    case 'valid':
      return state.minutesLeft >= 1 ? `valid for ${state.minutesLeft} min` : 'valid for <1 min';
    case 'expired':
      return state.refreshable ? 'expired (refreshes on next request)' : 'expired';
  }
}
