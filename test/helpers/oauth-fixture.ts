/**
 * Shared set-up of the OAuth tests: a real oidc-provider, a folder with profiles for each kind of
 * client and a request file that calls the provider's protected API with `{{token}}`.
 */
import { sessionFileFor } from './session-file.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOidcProvider } from '../servers/oidc-provider.js';
import { runCli, tempDir, type CliResult } from './cli.js';
import { startCli } from './cli-live.js';
import { browse, type BrowseOptions, type BrowseResult } from './oauth-browser.js';

export type Provider = Awaited<ReturnType<typeof startOidcProvider>>;

/** A port that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function profilesFor(provider: Provider, extra: Record<string, unknown>[] = []): unknown[] {
  const { issuer, clients } = provider;
  const variables = { apiUrl: provider.apiUrl };
  const endpoints = { authUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token` };
  // Port 0: reqflow takes a free port, which the provider allows for native clients (RFC 8252).
  const redirectUrl = 'http://127.0.0.1:0/callback';
  return [
    { name: 'public', variables, oauth: { clientId: clients.public.clientId, ...endpoints, scope: 'openid api:read', redirectUrl } },
    { name: 'discovery', variables, oauth: { issuer, clientId: clients.public.clientId, scope: 'openid api:read', redirectUrl } },
    { name: 'confidential', variables, oauth: { clientId: clients.confidential.clientId, clientSecret: '{{env.CONF_SECRET}}', ...endpoints, scope: 'api:read api:write', redirectUrl: 'http://localhost:0/callback' } },
    { name: 'bad-secret', variables, oauth: { clientId: clients.confidential.clientId, clientSecret: 'not-the-secret', ...endpoints, scope: 'api:read', redirectUrl } },
    { name: 'machine', variables, oauth: { grant: 'client_credentials', clientId: clients.machine.clientId, clientSecret: clients.machine.clientSecret, clientAuth: 'post', tokenUrl: `${issuer}/token`, scope: 'api:read' } },
    { name: 'device', variables, oauth: { clientId: clients.public.clientId, tokenUrl: `${issuer}/token`, deviceUrl: `${issuer}/device/auth`, scope: 'openid api:read' } },
    ...extra,
  ];
}

const API_REQUEST = `### me
GET {{apiUrl}}
Authorization: Bearer {{token}}
`;

export interface Workspace {
  dir: string;
  /** Environment for the CLI: its own state folder, plus the confidential client's secret. */
  env: NodeJS.ProcessEnv;
  run(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** `oauth login --no-browser`, with the simulated browser following the printed URL. */
  loginInBrowser(profile: string, options?: BrowseOptions & { args?: string[] }): Promise<{ result: CliResult; page: BrowseResult; url: string }>;
  session(profile: string): { variables: Record<string, string>; data: Record<string, any> };
  sessionPath(profile: string): string;
  cleanup(): void;
}

export function workspace(provider: Provider, extraProfiles: Record<string, unknown>[] = []): Workspace {
  const folder = tempDir('reqflow-oauth-');
  folder.write('.profiles.json', JSON.stringify(profilesFor(provider, extraProfiles), null, 2));
  folder.write('api.http', API_REQUEST);
  const stateDir = mkdtempSync(join(tmpdir(), 'reqflow-oauth-state-'));
  const env = { REQFLOW_STATE_DIR: stateDir, CONF_SECRET: provider.clients.confidential.clientSecret };
  const sessionPath = (profile: string): string => sessionFileFor(stateDir, folder.dir, profile);
  const run = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: folder.dir, env: { ...env, ...extraEnv } });
  return {
    dir: folder.dir,
    env,
    run,
    sessionPath,
    session: (profile) => JSON.parse(readFileSync(sessionPath(profile), 'utf8')),
    async loginInBrowser(profile, options = {}) {
      const cli = startCli(['oauth', 'login', '-p', profile, '--no-browser', ...(options.args ?? [])], { cwd: folder.dir, env });
      const [, url = ''] = await cli.waitForStderr(/^\s+(http\S+)$/m);
      const page = await browse(url, options);
      return { result: await cli.done, page, url };
    },
    cleanup() {
      folder.cleanup();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Calls the protected API directly, as any client would. */
export async function callApi(provider: Provider, token: string): Promise<{ status: number; body: any }> {
  const response = await fetch(provider.apiUrl, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}
