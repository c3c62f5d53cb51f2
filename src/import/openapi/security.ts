/**
 * Security schemes to what a request sends: bearer and basic as `Authorization` lines with
 * variables, API keys as the header, query parameter or cookie they name, OAuth 2.0 and OpenID
 * Connect as a bearer token that `reqflow oauth login` fetches with a profile written for it.
 */
import { asRecord } from '../source.js';
import { camelName, type ImportVariables } from '../variables.js';
import type { SecurityRequirement } from './operations.js';

export interface Credentials {
  headers: Array<[string, string]>;
  query: Array<[string, string]>;
  cookies: string[];
  comments: string[];
}

/** A profile of `.profiles.json` with the `oauth` object of docs/oauth.md. */
export interface OAuthProfile {
  name: string;
  oauth: Record<string, string>;
}

const FLOW_GRANTS: Array<[string, string]> = [
  ['authorizationCode', 'authorization_code'],
  ['accessCode', 'authorization_code'],
  ['clientCredentials', 'client_credentials'],
  ['application', 'client_credentials'],
];

/** The `oauth` object for a scheme, or a reason it cannot be written. */
function oauthOf(scheme: Record<string, unknown>): Record<string, string> | string {
  const base = { clientId: '{{env.OAUTH_CLIENT_ID}}' };
  if (scheme.type === 'openIdConnect') {
    const url = typeof scheme.openIdConnectUrl === 'string' ? scheme.openIdConnectUrl : '';
    return { ...base, issuer: url.replace(/\/\.well-known\/openid-configuration\/?$/, '') };
  }
  // 3.x: flows.{authorizationCode,clientCredentials,…}; 2.0: flow + the URLs on the scheme.
  const flows = asRecord(scheme.flows) ?? (typeof scheme.flow === 'string' ? { [scheme.flow]: scheme } : {});
  for (const [flowName, grant] of FLOW_GRANTS) {
    const flow = asRecord(flows[flowName]);
    if (!flow) continue;
    const scope = Object.keys(asRecord(flow.scopes) ?? {}).join(' ');
    return {
      ...base,
      ...(grant === 'client_credentials' ? { clientSecret: '{{env.OAUTH_CLIENT_SECRET}}', grant } : {}),
      ...(typeof flow.authorizationUrl === 'string' ? { authUrl: flow.authorizationUrl } : {}),
      ...(typeof flow.tokenUrl === 'string' ? { tokenUrl: flow.tokenUrl } : {}),
      ...(scope ? { scope } : {}),
    };
  }
  return `its flows (${Object.keys(flows).join(', ')}) are not ones reqflow runs (authorization code, client credentials)`;
}

export class SecurityMapper {
  readonly profiles: OAuthProfile[] = [];

  constructor(
    private readonly schemes: Record<string, unknown>,
    private readonly variables: ImportVariables,
    private readonly warn: (message: string) => void,
    private readonly profilesFile: string,
  ) {}

  /** What one scheme sends; worked out (and warned about) once per scheme. */
  private readonly memo = new Map<string, Credentials>();

  private oauth(key: string, scheme: Record<string, unknown>, credentials: Credentials): void {
    credentials.headers.push(['Authorization', `Bearer {{${this.variables.parameter('token', '', { secret: true })}}}`]);
    const oauth = oauthOf(scheme);
    if (typeof oauth === 'string') {
      this.warn(`security scheme "${key}": ${oauth}; its requests send {{token}}: set it yourself`);
      credentials.comments.push(`OAuth 2.0 (${key}): set {{token}} yourself (${oauth})`);
      return;
    }
    this.profiles.push({ name: key, oauth });
    credentials.comments.push(`OAuth 2.0 (${key}): reqflow oauth login --profiles ${this.profilesFile} -p ${key}`);
  }

  private scheme(key: string): Credentials {
    const known = this.memo.get(key);
    if (known) return known;
    const credentials: Credentials = { headers: [], query: [], cookies: [], comments: [] };
    this.memo.set(key, credentials);
    const scheme = asRecord(this.schemes[key]);
    if (!scheme) {
      this.warn(`security scheme "${key}" is not defined in the spec: not imported`);
      return credentials;
    }
    const type = String(scheme.type);
    const httpScheme = String(scheme.scheme ?? '').toLowerCase();
    if ((type === 'http' && httpScheme === 'basic') || type === 'basic') {
      credentials.headers.push(['Authorization', `Basic {{${this.variables.parameter('username', '')}}} {{${this.variables.parameter('password', '', { secret: true })}}}`]);
    } else if (type === 'http' && httpScheme === 'bearer') {
      credentials.headers.push(['Authorization', `Bearer {{${this.variables.parameter('token', '', { secret: true })}}}`]);
    } else if (type === 'http' && httpScheme === 'digest') {
      credentials.headers.push(['Authorization', `Digest {{${this.variables.parameter('username', '')}}} {{${this.variables.parameter('password', '', { secret: true })}}}`]);
    } else if (type === 'apiKey' && typeof scheme.name === 'string') {
      const variable = `{{${this.variables.parameter(camelName(key), '', { secret: true })}}}`;
      if (scheme.in === 'query') credentials.query.push([scheme.name, variable]);
      else if (scheme.in === 'cookie') credentials.cookies.push(`${scheme.name}=${variable}`);
      else credentials.headers.push([scheme.name, variable]);
    } else if (type === 'oauth2' || type === 'openIdConnect') {
      this.oauth(key, scheme, credentials);
    } else {
      this.warn(`security scheme "${key}" (${type}${httpScheme ? ` ${httpScheme}` : ''}) has no equivalent: its requests are sent without it`);
      credentials.comments.push(`security scheme "${key}" (${type}) is not imported`);
    }
    return credentials;
  }

  /** What the first alternative of `requirements` sends (an empty one: nothing). */
  credentials(requirements: SecurityRequirement[] | undefined): Credentials {
    const credentials: Credentials = { headers: [], query: [], cookies: [], comments: [] };
    for (const key of Object.keys(asRecord(requirements?.[0]) ?? {})) {
      const own = this.scheme(key);
      credentials.headers.push(...own.headers);
      credentials.query.push(...own.query);
      credentials.cookies.push(...own.cookies);
      credentials.comments.push(...own.comments);
    }
    return credentials;
  }
}
