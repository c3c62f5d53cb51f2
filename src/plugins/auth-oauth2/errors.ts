import { AuthFlowError, NetworkError, isReqflowError, type ReqflowError } from '../../core/errors/index.js';

/** Which OAuth call failed, so that the message can name it and the hint can point at the field. */
export interface OAuthCallSite {
  /** "token endpoint", "device authorization endpoint", "discovery document". */
  what: string;
  url: string;
  /** The profile field behind `url` (`oauth.tokenUrl`), for hints. */
  field: string;
  profile: string;
  /** A token endpoint error during a refresh: the fix is a new login. */
  refreshing?: boolean;
  /** How the user logs in again, for hints (the TUI: `press o`); default: the `reqflow oauth login` command. */
  retry?: string;
}

/** The OAuth error codes (RFC 6749 §5.2, RFC 8628 §3.5) and what the user can do about each. */
function hintFor(code: string, site: OAuthCallSite): string | undefined {
  const login = `reqflow oauth login -p ${site.profile}`;
  const { retry } = site;
  switch (code) {
    case 'invalid_client':
      return `check oauth.clientId and oauth.clientSecret of profile "${site.profile}" (and oauth.clientAuth: "basic" or "post")`;
    case 'invalid_grant':
      if (retry) return site.refreshing ? `the refresh token is no longer valid; ${retry} to log in again` : `the code or token was invalid, expired or already used; ${retry} to try again`;
      return site.refreshing ? `the refresh token is no longer valid; log in again: ${login}` : `the code or token was invalid, expired or already used; try again: ${login}`;
    case 'unauthorized_client':
      return 'the authorization server does not allow this client to use this grant';
    case 'invalid_scope':
      return `check oauth.scope of profile "${site.profile}"`;
    case 'access_denied':
      return retry ? `${retry} to log in again and approve the request` : `run ${login} again and approve the request`;
    case 'expired_token':
      return `the code expired before it was approved; ${retry ? `${retry} to try again` : `run ${login} --device again`}`;
    case 'unsupported_grant_type':
      return 'the authorization server does not support this grant';
    default:
      return undefined;
  }
}

function describeOAuthError(code: string, description: unknown): string {
  return typeof description === 'string' && description !== '' ? `${code} (${description})` : code;
}

interface CodedError extends Error {
  code?: string;
  error?: string;
  error_description?: string;
}

/** A 401 with `WWW-Authenticate: Basic error="invalid_client", ...` (RFC 6750 §3) carries the OAuth error there. */
function challengeError(err: CodedError | undefined): { error?: string; description?: string } | undefined {
  if (err?.name !== 'WWWAuthenticateChallengeError' || !Array.isArray(err.cause)) return undefined;
  const challenges = err.cause as Array<{ parameters?: Record<string, string> }>;
  const found = challenges.find((challenge) => challenge.parameters?.error)?.parameters;
  return found ? { error: found.error, ...(found.error_description ? { description: found.error_description } : {}) } : { error: `HTTP ${(err as { status?: number }).status ?? 401}` };
}

function findReqflowError(error: unknown): ReqflowError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (isReqflowError(current)) return current;
  }
  return undefined;
}

function responseSummary(response: unknown): { status?: number; type?: string } {
  if (!(response instanceof Response)) return {};
  return { status: response.status, type: response.headers.get('content-type')?.split(';')[0] ?? '' };
}

/**
 * Turns whatever openid-client threw into one clear line: the endpoint's OAuth error (exit 6),
 * a response that is not OAuth JSON (exit 6), or the network error underneath (exit 4/5).
 */
export function toOAuthError(error: unknown, site: OAuthCallSite): ReqflowError {
  const known = findReqflowError(error);
  if (known) return known;
  const err = error as CodedError;
  const where = `${site.what} ${site.url}`;
  const oauthError = err?.name === 'ResponseBodyError' || err?.name === 'AuthorizationResponseError' ? { error: err.error, description: err.error_description } : challengeError(err);
  if (oauthError?.error) {
    const code = oauthError.error;
    const hint = hintFor(code, site);
    const prefix = code === 'access_denied' ? 'access denied' : `${site.what} rejected the request`;
    return new AuthFlowError(`${prefix}: ${describeOAuthError(code, oauthError.description)}`, { ...(hint ? { hint } : {}), cause: error });
  }
  const inner = err?.cause instanceof Error ? err.cause.message : undefined;
  switch (err?.code) {
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM': {
      const { status, type } = responseSummary(err.cause);
      const looksLikePage = type === 'text/html';
      return new AuthFlowError(`${where} answered HTTP ${status ?? '?'}${type ? ` with ${type}` : ''}, not an OAuth JSON response`, {
        hint: looksLikePage ? `that is a web page: check ${site.field} (it must be the OAuth ${site.what}, not a login page)` : `check ${site.field}`,
        cause: error,
      });
    }
    case 'OAUTH_PARSE_ERROR':
      return new AuthFlowError(`${where} answered with malformed JSON`, { hint: `check ${site.field}`, cause: error });
    case 'OAUTH_INVALID_RESPONSE':
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON':
    case 'OAUTH_INVALID_SERVER_METADATA':
      return new AuthFlowError(`${where} sent an invalid response: ${inner ?? err.message}`, { hint: `check ${site.field}`, cause: error });
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
      return new AuthFlowError(`${where} sent an ID token that failed validation: ${inner ?? err.message}`, { hint: 'check oauth.issuer (and the system clock)', cause: error });
    case 'OAUTH_TIMEOUT':
      return new NetworkError(`${where} did not answer in time`, { cause: error });
    default:
      return new AuthFlowError(`${where} failed: ${inner ?? err?.message ?? String(error)}`, { cause: error });
  }
}
