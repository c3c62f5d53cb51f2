export const RESOURCE: string;

export interface OidcProviderOptions {
  /** Lifetime of access tokens (and client credentials tokens) in seconds; default 3600. */
  accessTokenTtl?: number;
  /** Polling interval the device authorization endpoint announces, in seconds; default 1. */
  deviceInterval?: number;
  /** Serve HTTPS with this certificate and key (PEM file paths) instead of HTTP. */
  tls?: { cert: string; key: string };
}

export interface OidcProviderState {
  accessTokenTtl: number;
  deviceInterval: number;
  slowDownPolls: number;
  /** Successful grants by grant_type (`authorization_code`, `refresh_token`, ...). */
  grants: Record<string, number>;
  /** Time (ms since epoch) of every POST /token. */
  tokenRequests: number[];
}

export interface OidcTestProvider {
  issuer: string;
  port: number;
  /** GET with `Authorization: Bearer <access token>`: 200 {sub, clientId, scope, kind} or 401. */
  apiUrl: string;
  clients: {
    public: { clientId: string };
    confidential: { clientId: string; clientSecret: string };
    machine: { clientId: string; clientSecret: string };
  };
  state: OidcProviderState;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- oidc-provider ships no types
  provider: any;
  slowDownNextPolls(count: number): void;
  revokeRefreshToken(token: string): Promise<boolean>;
  close(): Promise<void>;
}

export function startOidcProvider(options?: OidcProviderOptions): Promise<OidcTestProvider>;
