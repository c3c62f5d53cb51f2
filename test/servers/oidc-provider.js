// A real, certified OpenID provider (oidc-provider 9) for the OAuth tests, on 127.0.0.1 with
// port 0. It has the clients reqflow's flows need (public + PKCE, confidential, machine), the
// device flow, client credentials, refresh tokens with a configurable lifetime, and a protected
// API (/api/me) that accepts only access tokens this provider issued and that are still valid.
// Plain JS like demo-api.js, so `node -e` can start it for manual checks too.
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const RESOURCE = 'urn:reqflow:api';

// oidc-provider warns (console.warn/info) about its development defaults, which are exactly
// what a test wants; keep test output readable by dropping those lines only.
let quieted = 0;
const original = { warn: console.warn, info: console.info };
function quietProviderWarnings() {
  if (quieted++ === 0) {
    for (const level of ['warn', 'info']) {
      original[level] = console[level];
      console[level] = (...args) => {
        if (typeof args[0] === 'string' && /^oidc-provider (WARNING|NOTICE)/.test(args[0])) return;
        original[level](...args);
      };
    }
  }
  return () => {
    if (--quieted === 0) Object.assign(console, original);
  };
}
const RESOURCE_SCOPES = 'api:read api:write';

function json(res, status, value, headers = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** Routes that imitate misconfigured OAuth endpoints (a login page, plain text, broken JSON). */
const NOT_OAUTH = {
  '/not-oauth/html': ['text/html; charset=utf-8', '<!DOCTYPE html><html><body><h1>Welcome, please sign in</h1></body></html>'],
  '/not-oauth/text': ['text/plain', 'hello from a plain web server'],
  '/not-oauth/broken-json': ['application/json', '{"access_token": "abc", '],
  // Two MiB of JSON: past what a token response may be.
  '/not-oauth/huge': ['application/json', `{"access_token": "${'a'.repeat(2 * 1024 * 1024)}"}`],
  // A token no header can carry (a line break), and a scope that would clear a terminal.
  '/not-oauth/crlf-token': ['application/json', JSON.stringify({ access_token: 'AT\r\nX-Injected: yes', token_type: 'Bearer', expires_in: 3600 })],
  '/not-oauth/escape-scope': ['application/json', JSON.stringify({ access_token: 'fine-token-123', token_type: 'Bearer', expires_in: 3600, scope: '\u001b[2Jx' })],
};

/**
 * Starts the provider.
 * @param {{ accessTokenTtl?: number, deviceInterval?: number, tls?: { cert: string, key: string } }} [options]
 */
export async function startOidcProvider(options = {}) {
  const restoreWarn = quietProviderWarnings();
  const { default: Provider } = await import('oidc-provider');
  const state = {
    accessTokenTtl: options.accessTokenTtl ?? 3600,
    deviceInterval: options.deviceInterval ?? 1,
    slowDownPolls: 0,
    grants: {},
    tokenRequests: [],
  };
  const clients = {
    public: { clientId: 'reqflow-public' },
    confidential: { clientId: 'reqflow-confidential', clientSecret: `conf-${randomBytes(12).toString('hex')}` },
    machine: { clientId: 'reqflow-machine', clientSecret: `machine-${randomBytes(12).toString('hex')}` },
  };
  // Native clients may use any port on a loopback redirect URI (RFC 8252 §7.3), so the tests'
  // callback servers can take a free port.
  const loopbackRedirects = ['http://127.0.0.1/callback', 'http://localhost/callback', 'http://[::1]/callback'];

  // With `tls`, the provider serves HTTPS with that certificate (the tests' own CA signs it).
  const server = options.tls ? createHttpsServer({ cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key) }) : createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const issuer = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clients.public.clientId,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        redirect_uris: loopbackRedirects,
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
      },
      {
        client_id: clients.confidential.clientId,
        client_secret: clients.confidential.clientSecret,
        application_type: 'native',
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: loopbackRedirects,
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
      },
      {
        client_id: clients.machine.clientId,
        client_secret: clients.machine.clientSecret,
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        response_types: [],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    scopes: ['openid', 'offline_access', 'api:read', 'api:write'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    features: {
      devInteractions: { enabled: true },
      deviceFlow: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: RESOURCE_SCOPES, audience: RESOURCE, accessTokenTTL: state.accessTokenTtl, accessTokenFormat: 'opaque' }),
      },
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: () => state.accessTokenTtl,
      ClientCredentials: () => state.accessTokenTtl,
      DeviceCode: 600,
      RefreshToken: 86400,
      Grant: 86400,
      Interaction: 600,
      Session: 86400,
      IdToken: 3600,
      AuthorizationCode: 60,
    },
  });

  // RFC 8628 lets the server choose the polling interval; a short one keeps the tests fast.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/device/auth' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') ctx.body.interval = state.deviceInterval;
  });
  provider.on('grant.success', (ctx) => {
    const grant = ctx.oidc.params?.grant_type ?? 'unknown';
    state.grants[grant] = (state.grants[grant] ?? 0) + 1;
  });

  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === '/token' && req.method === 'POST') {
        state.tokenRequests.push(Date.now());
        if (state.slowDownPolls > 0) {
          state.slowDownPolls -= 1;
          req.resume();
          return json(res, 400, { error: 'slow_down', error_description: 'you are polling too quickly' });
        }
      }
      if (path === '/api/me') return await protectedResource(provider, req, res);
      const notOauth = NOT_OAUTH[path];
      if (notOauth) {
        req.resume();
        res.writeHead(200, { 'Content-Type': notOauth[0] });
        return res.end(notOauth[1]);
      }
      callback(req, res);
    } catch (error) {
      json(res, 500, { error: 'server_error', error_description: String(error) });
    }
  });

  return {
    issuer,
    port,
    apiUrl: `${issuer}/api/me`,
    clients,
    state,
    provider,
    /** Makes the next N token requests answer `slow_down` (RFC 8628 §3.5). */
    slowDownNextPolls(count) {
      state.slowDownPolls = count;
    },
    /** Revokes a refresh token server-side, as an admin or a password change would. */
    async revokeRefreshToken(token) {
      const found = await provider.RefreshToken.find(token);
      if (found) await found.destroy();
      return found !== undefined;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          restoreWarn();
          resolve();
        });
      }),
  };
}

/** An API that validates bearer tokens against the provider's own token store. */
async function protectedResource(provider, req, res) {
  req.resume();
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return json(res, 401, { error: 'missing bearer token' }, { 'WWW-Authenticate': 'Bearer' });
  const value = match[1];
  const token = (await provider.AccessToken.find(value)) ?? (await provider.ClientCredentials.find(value));
  if (!token || token.isExpired) return json(res, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  json(res, 200, { sub: token.accountId ?? null, clientId: token.clientId, scope: token.scope, kind: token.kind });
}
