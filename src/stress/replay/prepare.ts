/**
 * The replay of a stress request, prepared from one request of the run that went through the
 * whole loop: its URL, headers and body after substitution, auth and transform (`ctx.spec`), the
 * headers the send stage adds (User-Agent, Accept, Content-Length) and its TLS options — the
 * request `reqflow run` sends, serialised once. Or the reason it cannot be replayed.
 */
import type { ConnectionOptions } from 'node:tls';
import { isIP } from 'node:net';
import { getHeader } from '../../core/headers.js';
import type { CookieStore } from '../../core/http/cookie-jar.js';
import type { Target } from '../../core/http/network-errors.js';
import { headersToSend } from '../../core/http/header-fields.js';
import { requestTarget } from '../../core/http/request-target.js';
import { parseRequestUrl, withDefaultHeaders } from '../../core/http/send.js';
import { tlsConnectOptions } from '../../core/http/tls-connect.js';
import { checkHeaderFields } from '../../core/http/header-fields.js';
import { requestSettings } from '../../core/request-settings.js';
import type { Session } from '../../core/model.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { RunServices } from '../../pipeline/create-context.js';
import { wireBytes } from './wire-bytes.js';

export interface ReplayTarget {
  url: URL;
  /** The request as it goes on the wire, every time. */
  bytes: Buffer;
  /** A HEAD request: responses carry no body whatever their headers say. */
  head: boolean;
  /** For https:// URLs: what the run's agent connects with (agents.ts). */
  tls?: ConnectionOptions;
  timeoutMs: number;
  connectTimeoutMs?: number;
  /** The run's cookie jar, when this request sends its cookies: a `Set-Cookie` is stored, and ends the replay. */
  cookies?: CookieStore;
  /** What the errors of a failed request name (one-hop.ts words them). */
  errorTarget: Target;
  /** The run's session, when tokens are extracted from responses (capture-token.ts): a token stored ends the replay. */
  session?: Session;
}

export type Prepared = { target: ReplayTarget } | { reason: string };

export async function prepareReplay(ctx: RequestContext, services: RunServices): Promise<Prepared> {
  const { spec } = ctx;
  const settings = requestSettings(spec, services.options, ctx.profile);
  if (settings.followRedirects) return { reason: 'redirects are followed (-L)' };
  if (settings.retry !== undefined) return { reason: 'failed requests are retried (--retry)' };
  if (settings.maxTimeMs !== undefined) return { reason: 'each request has a total limit (--max-time)' };
  if (settings.http2 === 'require' || settings.http2 === 'prefer') return { reason: 'HTTP/2 is asked for' };
  if (settings.socketPath !== undefined) return { reason: 'it goes over a Unix socket (--unix-socket)' };
  const url = parseRequestUrl(spec.url);
  if (services.proxy?.forUrl(url)) return { reason: 'it goes through a proxy' };
  if (services.agents.speaksOnlyHttp2(url)) return { reason: 'the server speaks only HTTP/2' };
  const headers = withDefaultHeaders(spec.headers);
  // The jar's cookies would go out with it (send.ts): a request that carries some is not replayed.
  const cookies = services.cookies && spec.annotations['no-cookie-jar'] === undefined && getHeader(headers, 'cookie') === undefined ? services.cookies : undefined;
  if (cookies && (await cookies.header(url.href)) !== undefined) return { reason: 'it carries cookies from the cookie jar' };
  checkHeaderFields(spec.method, url, headers, spec.body);
  const tlsOptions = ctx.tlsOptions;
  const bytes = await wireBytes({
    method: spec.method,
    url,
    path: requestTarget(spec.url, url, spec.asteriskForm),
    headers: headersToSend({ method: spec.method, url: spec.url, headers, ...(spec.body !== undefined ? { body: spec.body } : {}), tls: tlsOptions, timeoutMs: settings.timeoutMs, followRedirects: false }),
    ...(spec.body !== undefined ? { body: spec.body } : {}),
  });
  const target: ReplayTarget = {
    url,
    bytes,
    head: spec.method === 'HEAD',
    timeoutMs: settings.timeoutMs,
    errorTarget: { method: spec.method, url, clientCertificate: tlsOptions.cert !== undefined || tlsOptions.pfx !== undefined },
  };
  if (settings.connectTimeoutMs !== undefined) target.connectTimeoutMs = settings.connectTimeoutMs;
  if (cookies) target.cookies = cookies;
  if (services.options.extract) target.session = ctx.session;
  if (url.protocol === 'https:') {
    // As node:https names the server: the Host header's name, else the URL's; never an address.
    const name = (getHeader(headers, 'host') ?? url.host).replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    target.tls = { ...tlsConnectOptions(tlsOptions), ALPNProtocols: ['http/1.1'], ...(isIP(name) === 0 ? { servername: name } : {}) };
  }
  return { target };
}
