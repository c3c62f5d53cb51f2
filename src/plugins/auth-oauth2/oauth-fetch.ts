import { ExitCode, ReqflowError, isReqflowError } from '../../core/errors/index.js';
import { AgentPool } from '../../core/http/agents.js';
import type { ProxyRules } from '../../core/http/proxy.js';
import { sendHttp } from '../../core/http/send.js';
import { readWholeBody } from '../../core/read-body.js';

/** openid-client's `customFetch` shape (kept local so this module loads without openid-client). */
export type OAuthFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal }) => Promise<Response>;

export interface OAuthFetchOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Without a configured `issuer` reqflow cannot check an ID token's `iss`, so it speaks plain
   * OAuth 2.0 and drops the ID token (it only needs the access token).
   */
  dropIdToken: boolean;
  /** Extra certificate authorities to trust (the profile's `tls.caFile`). */
  ca?: Buffer[];
  /** The run's proxy rules: token, discovery and revocation calls go through the same proxy as requests. */
  proxy?: ProxyRules;
}

/** OAuth responses are small; anything bigger is not an OAuth response. */
const MAX_OAUTH_RESPONSE = 1024 * 1024;

function bodyOf(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('unsupported OAuth request body');
}

/**
 * The HTTP layer under openid-client: reqflow's own node:http client (the same error wording,
 * time-out and keep-alive agents as every request) instead of the global fetch.
 */
const OAUTH_ENDPOINT_HINT = "check the profile's oauth.tokenUrl (or oauth.issuer), and that the server there answers";

export function createOAuthFetch(options: OAuthFetchOptions): { fetch: OAuthFetch; close(): void } {
  const agents = new AgentPool();
  const fetch: OAuthFetch = async (url, init) => {
    const signals = [init.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const body = bodyOf(init.body);
    let bytes: Buffer;
    let response;
    try {
      response = await sendHttp(
        {
          method: init.method,
          url,
          headers: init.headers,
          ...(body !== undefined ? { body } : {}),
          tls: options.ca ? { ca: options.ca } : {},
          verifyAlways: true,
          timeoutMs: options.timeoutMs,
          followRedirects: false,
          ...(options.proxy ? { proxy: options.proxy } : {}),
          ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
        },
        agents,
      );
      bytes = await readWholeBody(response, MAX_OAUTH_RESPONSE);
    } catch (error) {
      const endpoint = new URL(url);
      const where = `${endpoint.origin}${endpoint.pathname}`;
      const known = isReqflowError(error) ? error : undefined;
      // Reached, but the answer is no token response: not a network fault, and no --max-size raises the limit.
      if (response && known?.message.startsWith('response is larger than') === true) {
        throw new ReqflowError(`the OAuth endpoint ${where} answered with more than ${MAX_OAUTH_RESPONSE / 1024 / 1024} MiB: not a token response`, { exitCode: ExitCode.auth, hint: OAUTH_ENDPOINT_HINT, cause: error });
      }
      // Keep the exit code (4 network, 5 TLS); name the OAuth endpoint that failed. A hint naming a
      // request's flag (--timeout) would not help `reqflow oauth login`, which has none.
      const hint = known?.hint;
      throw new ReqflowError(`cannot reach the OAuth endpoint ${where}: ${known?.message ?? String(error)}`, {
        exitCode: known?.exitCode ?? ExitCode.network,
        hint: hint !== undefined && !/--[a-z]/.test(hint) ? hint : OAUTH_ENDPOINT_HINT,
        cause: error,
      });
    }
    if (options.dropIdToken) bytes = withoutIdToken(bytes);
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    const empty = bytes.length === 0 || [204, 304].includes(response.status);
    return new Response(empty ? null : new Uint8Array(bytes), { status: response.status, statusText: response.statusText, headers });
  };
  return { fetch, close: () => agents.destroy() };
}

function withoutIdToken(bytes: Buffer): Buffer {
  if (!bytes.includes('"id_token"')) return bytes;
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bytes;
    delete parsed.id_token;
    return Buffer.from(JSON.stringify(parsed));
  } catch {
    return bytes;
  }
}
