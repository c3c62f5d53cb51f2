import type { ProxyRules } from '../../core/http/proxy.js';
import { UsageError } from '../../core/errors/index.js';
import { toOAuthError, type OAuthCallSite } from './errors.js';
import { createOAuthFetch } from './oauth-fetch.js';
import { ENDPOINT_FIELD, checkTransport, field, fieldName, type Endpoint, type OAuthSettings } from './settings.js';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

/** What every flow needs to talk to the authorization server. */
export interface OAuthClient {
  lib: OpenIdClient;
  config: Configuration;
  settings: OAuthSettings;
  /** The URL of each endpoint (profile field, else discovery). */
  endpoints: Partial<Record<Endpoint, string>>;
  /** True when `issuer` is configured: `iss` and ID tokens are verified. */
  verifiesIssuer: boolean;
  /** Describes an endpoint for error messages. */
  site(endpoint: Endpoint, extra?: Partial<OAuthCallSite>): OAuthCallSite;
}

export interface ConnectOptions {
  /** Endpoints the flow will use: each must be known (profile or discovery), else exit 2 naming the field. */
  needs: readonly Endpoint[];
  /** Endpoints the flow uses when the server has them (checked like `needs` when present). */
  uses?: readonly Endpoint[];
  timeoutMs: number;
  signal?: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** The proxy rules in force (`--proxy`, the profile's `proxy`, `https_proxy`, `no_proxy`). */
  proxy?: ProxyRules;
  /** How the user logs in again, for the hints of errors (the TUI: `press o`). */
  retry?: string;
}

const ENDPOINT_LABEL: Record<Endpoint, string> = { authorization: 'authorization endpoint', token: 'token endpoint', device: 'device authorization endpoint', revocation: 'revocation endpoint' };
const METADATA_KEY = { authorization: 'authorization_endpoint', token: 'token_endpoint', device: 'device_authorization_endpoint', revocation: 'revocation_endpoint' } as const;

function clientAuthentication(lib: OpenIdClient, settings: OAuthSettings): import('openid-client').ClientAuth {
  if (!settings.clientSecret) return lib.None();
  return settings.clientAuth === 'post' ? lib.ClientSecretPost(settings.clientSecret) : lib.ClientSecretBasic(settings.clientSecret);
}

/**
 * Runs `use` with a client for the profile's authorization server, then closes its connections.
 * openid-client is imported here, lazily: only OAuth work pays for it.
 */
export async function withOAuthClient<T>(settings: OAuthSettings, options: ConnectOptions, use: (client: OAuthClient) => Promise<T>): Promise<T> {
  const lib = await import('openid-client');
  const http = createOAuthFetch({ timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}), ...(settings.ca ? { ca: settings.ca } : {}), ...(options.proxy ? { proxy: options.proxy } : {}), dropIdToken: settings.issuer === undefined });
  try {
    const config = await configure(lib, settings, options, http.fetch);
    const server = config.serverMetadata();
    const endpoints: Partial<Record<Endpoint, string>> = {};
    let insecure = false;
    for (const endpoint of Object.keys(METADATA_KEY) as Endpoint[]) {
      const url = server[METADATA_KEY[endpoint]];
      if (typeof url !== 'string') continue;
      endpoints[endpoint] = url;
      if (options.needs.includes(endpoint) || options.uses?.includes(endpoint)) insecure = checkTransport(url, fieldName(settings, endpoint), options.env) || insecure;
    }
    for (const endpoint of options.needs) if (!endpoints[endpoint]) throw missingEndpoint(settings, endpoint);
    if (insecure) lib.allowInsecureRequests(config);
    const client: OAuthClient = {
      lib,
      config,
      settings,
      endpoints,
      verifiesIssuer: settings.issuer !== undefined,
      site: (endpoint, extra = {}) => ({ what: ENDPOINT_LABEL[endpoint], url: endpoints[endpoint] ?? '?', field: fieldName(settings, endpoint), profile: settings.profile, ...(options.retry ? { retry: options.retry } : {}), ...extra }),
    };
    return await use(client);
  } finally {
    http.close();
  }
}

async function configure(lib: OpenIdClient, settings: OAuthSettings, options: ConnectOptions, fetch: ReturnType<typeof createOAuthFetch>['fetch']): Promise<Configuration> {
  const auth = clientAuthentication(lib, settings);
  const fromMetadata = (metadata: import('openid-client').ServerMetadata): Configuration => {
    const config = new lib.Configuration(metadata, settings.clientId, undefined, auth);
    config[lib.customFetch] = fetch;
    return config;
  };
  const explicit = {
    ...(settings.authUrl ? { authorization_endpoint: settings.authUrl } : {}),
    ...(settings.tokenUrl ? { token_endpoint: settings.tokenUrl } : {}),
    ...(settings.deviceUrl ? { device_authorization_endpoint: settings.deviceUrl } : {}),
    ...(settings.revocationUrl ? { revocation_endpoint: settings.revocationUrl } : {}),
  };
  if (settings.issuer) {
    const where = field(settings.profile, 'issuer');
    const insecure = checkTransport(settings.issuer, where, options.env);
    let discovered: Configuration;
    try {
      discovered = await lib.discovery(new URL(settings.issuer), settings.clientId, undefined, auth, {
        [lib.customFetch]: fetch,
        ...(insecure ? { execute: [lib.allowInsecureRequests] } : {}),
      });
    } catch (error) {
      const url = new URL('.well-known/openid-configuration', settings.issuer.endsWith('/') ? settings.issuer : `${settings.issuer}/`).href;
      throw toOAuthError(error, { what: 'OpenID discovery document', url, field: where, profile: settings.profile });
    }
    // Endpoints written in the profile win over discovered ones.
    if (Object.keys(explicit).length === 0) return discovered;
    const metadata = Object.fromEntries(Object.entries(discovered.serverMetadata()).filter(([, value]) => typeof value !== 'function'));
    return fromMetadata({ ...(metadata as unknown as import('openid-client').ServerMetadata), ...explicit });
  }
  if (!settings.tokenUrl) throw missingEndpoint(settings, 'token');
  // Without discovery there is no issuer to check `iss` against; the token URL's origin stands in
  // (openid-client requires one) and ID tokens are dropped (see oauth-fetch.ts).
  return fromMetadata({ issuer: new URL(settings.tokenUrl).origin, ...explicit });
}

function missingEndpoint(settings: OAuthSettings, endpoint: Endpoint): UsageError {
  const name = fieldName(settings, endpoint);
  const needed = endpoint === 'device' ? ' for the device flow (--device)' : endpoint === 'authorization' ? ' for the browser login (authorization code flow)' : '';
  return new UsageError(`${name} is required${needed}`, {
    hint: settings.issuer
      ? `the discovery document of ${settings.issuer} does not name one; set oauth.${ENDPOINT_FIELD[endpoint]} in the profile`
      : `set oauth.${ENDPOINT_FIELD[endpoint]}, or oauth.issuer to find the endpoints by OpenID discovery`,
  });
}
