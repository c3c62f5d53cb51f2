/** A profile from `.profiles.json` as the pipeline reads it: variables, headers, auth, TLS and proxy settings. */
import type { TlsSettings } from './tls-settings.js';

/** A profile from `.profiles.json`, validated. Plugins read it; nothing changes it during a run. */
export interface Profile {
  /** `-p NAME`, `REQFLOW_PROFILE`, else `default`, else the first profile. The session is per profile. */
  name: string;
  /**
   * Variable values as written: a string (may hold `{{other}}` or be a `$(shell command)`), or
   * an interactive prompt. Read resolved values with `ctx.variables.get(name)`, never here.
   */
  variables: Record<string, ProfileVariable>;
  /** Headers sent with every request of the profile (a request's own header of the same name wins). */
  headers: Record<string, string>;
  /**
   * Where each of `headers` is written, by lower-case name (`/p/.profiles.json: profiles[0].headers.X-Api-Key`,
   * `/p/.httpyac.json: "defaultHeaders".Cookie`): an error in its value names the file, as a request's names its line.
   */
  headerOrigins?: Readonly<Record<string, string>>;
  /** OAuth 2.0 settings (`reqflow oauth login`). */
  oauth?: OAuthSettings;
  /** TLS settings for every request of the profile. */
  tls?: TlsSettings;
  /** `"http2": true`: every request of the profile uses HTTP/2 where the server agrees (as `--http2`). */
  http2?: boolean;
  /** `"proxy"`: the proxy of every request of the profile (`--proxy` wins; `""`: none, whatever the environment says). */
  proxy?: string;
  /** `"noProxy"`: hosts that go direct, in place of `no_proxy` (`--noproxy` wins). */
  noProxy?: string;
  /** `"history": false`: the requests of the profile are not kept in the history (as `--no-history`). */
  history?: boolean;
  /**
   * The profile's default authentication method, e.g. `{ "type": "bearer" }`. The other keys
   * are the settings of the method named by `type` (the {@link Plugin.authName} of the plugin
   * that implements it); settings of other methods, for requests that pick them with
   * `# @auth`, sit under the method's name. Values are raw (`{{templates}}` unresolved): read
   * them with the `readAuthSettings` helper, which applies these rules and expands them.
   *
   * @example
   * ```
   * { "type": "hmac", "secret": "{{hmacSecret}}", "header": "X-Signature", "bearer": { "token": "{{apiToken}}" } }
   * ```
   */
  auth?: AuthSettings;
  /** The folder of the profiles file: relative TLS paths in the profile resolve against it. */
  baseDir: string;
}

/** A profile variable: a plain value, or `{ value, interactive: true }` to prompt (with `value` as the default). */
export type ProfileVariable = string | { value: string; interactive?: boolean; secret?: boolean };

/** The `oauth` object of a profile. Keys the built-in OAuth plugin does not know are kept. */
export interface OAuthSettings {
  authUrl?: string;
  tokenUrl?: string;
  clientId: string;
  clientSecret?: string;
  scope?: string;
  redirectUrl?: string;
  deviceUrl?: string;
  /** Token revocation endpoint (RFC 7009) for `reqflow oauth logout`; discovery finds it from `issuer`. */
  revocationUrl?: string;
  issuer?: string;
  grant?: 'authorization_code' | 'client_credentials' | 'device_code';
  [key: string]: unknown;
}

/** The `auth` object of a profile: `type` names the method, the rest is the method's settings. */
export interface AuthSettings {
  type: string;
  [key: string]: unknown;
}
