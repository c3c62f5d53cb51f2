import type { ProxyRules } from '../../core/http/proxy.js';
import type { Profile, Session } from '../../core/model.js';
import { noTerminalPrompter } from '../../core/prompt.js';
import { TemplateResolver } from '../../core/variables.js';
import { openInBrowser } from './browser.js';
import { withOAuthClient } from './client.js';
import { FLOWS, type FlowEvent } from './flows/index.js';
import { readOAuthSettings, type GrantName, type OAuthSettings } from './settings.js';
import { authorityOf, storeTokens, type StoredOAuth } from './token-store.js';

/** How long a login waits for the user (browser callback, device approval). */
const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;
/** Time-out of each HTTP request to the authorization server. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface LoginOptions {
  profile: Profile;
  session: Session;
  /** The grant to run; default: the profile's `oauth.grant` (else `authorization_code`). */
  grant?: GrantName;
  /** Opens the authorization URL. Default: the system browser. `false`: only report it (`--no-browser`). */
  openBrowser?: false | ((url: string) => Promise<void>);
  /** Called with the authorization URL as soon as it is known (the CLI prints it; the TUI shows it). */
  onUrl?: (url: string) => void;
  /** Every step the user must see: the authorization URL, the device code. */
  onEvent?: (event: FlowEvent) => void;
  /** Cancels the login. */
  signal?: AbortSignal;
  /** How long to wait for the user; default 5 minutes. */
  timeoutMs?: number;
  requestTimeoutMs?: number;
  /** Expands `{{...}}` in the profile's `oauth` values; default: profile variables, session and environment, no prompts. */
  expand?: (text: string) => Promise<string>;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** The proxy rules in force: the OAuth calls go through the same proxy as requests. */
  proxy?: ProxyRules;
  /** How the user tries again, for the hints of errors (the TUI: `press o`); default: the `reqflow oauth login` command. */
  retry?: string;
}

export interface LoginResult {
  profile: string;
  grant: GrantName;
  stored: StoredOAuth;
}

/** `{{var}}` expansion for callers outside a request run (commands, the TUI's login dialog). */
function profileExpander(profile: Profile, session: Session, env: NodeJS.ProcessEnv = process.env): (text: string) => Promise<string> {
  const resolver = new TemplateResolver({ cliVariables: {}, session, profile, prompter: noTerminalPrompter, promptCache: new Map(), env });
  return (text) => resolver.expand(text);
}

export async function loadSettings(options: Pick<LoginOptions, 'profile' | 'session' | 'expand' | 'env'>): Promise<OAuthSettings> {
  return readOAuthSettings(options.profile, options.expand ?? profileExpander(options.profile, options.session, options.env));
}

/**
 * Runs a login flow for a profile and stores the tokens in its session (saved before returning).
 * Used by `reqflow oauth login` and by the TUI.
 */
export async function login(options: LoginOptions): Promise<LoginResult> {
  const settings = await loadSettings(options);
  return runGrant(settings, options.grant ?? settings.grant, options);
}

/** Runs one grant with settings already read, stores and saves the tokens. */
export async function runGrant(settings: OAuthSettings, grant: GrantName, options: Omit<LoginOptions, 'profile' | 'grant' | 'expand'>): Promise<LoginResult> {
  const flow = FLOWS[grant];
  const openBrowser = options.openBrowser === false ? undefined : (options.openBrowser ?? openInBrowser);
  const report = (event: FlowEvent): void => {
    if (event.type === 'authorization-url') options.onUrl?.(event.url);
    options.onEvent?.(event);
  };
  const connect = { needs: flow.endpoints, timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, env: options.env ?? process.env, ...(options.signal ? { signal: options.signal } : {}), ...(options.proxy ? { proxy: options.proxy } : {}), ...(options.retry ? { retry: options.retry } : {}) };
  const response = await withOAuthClient(settings, connect, (client) =>
    flow.perform({
      client,
      timeoutMs: options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS,
      report,
      warn: options.warn ?? (() => undefined),
      ...(openBrowser ? { openBrowser } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    }),
  );
  const stored = storeTokens(options.session, response, { grant, clientId: settings.clientId, authority: authorityOf(settings), ...(settings.scope ? { requestedScope: settings.scope } : {}) });
  await options.session.save();
  return { profile: settings.profile, grant, stored };
}

