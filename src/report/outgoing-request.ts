/**
 * A request as it would go on the wire, for `--dry-run` and `--as`: what the stages made of it
 * (URL, headers, body) and how the send stage would send it (HTTP version, redirects, TLS, the
 * proxy, the cookies the jar adds, the headers reqflow adds itself) — read, not sent.
 */
import { fieldLines, hasHeader, headersAsSent, type HeaderValue, type RequestHeaders } from '../core/headers.js';
import type { CookieStore } from '../core/http/cookie-jar.js';
import { checkHeaderFields } from '../core/http/header-fields.js';
import type { Http2Mode } from '../core/http/http2.js';
import type { ProxyRules } from '../core/http/proxy.js';
import { withDefaultHeaders } from '../core/http/send.js';
import type { BodyPiece, FileBody, TlsSettings } from '../core/model.js';
import type { SecretRegistry } from '../core/mask.js';
import { isCredentialHeader } from '../core/request-secrets.js';
import { requestSettings } from '../core/request-settings.js';
import type { RequestContext } from '../pipeline/context.js';
import type { DigestCredentials } from '../plugins/auth-digest/response.js';

export interface OutgoingRequest {
  name: string;
  method: string;
  /** As the request holds it (a reference to a response not yet received stays `{{…}}` in a dry run). */
  url: string;
  /** The request's headers as they go out (several Cookie lines are one over HTTP/1.1), with the Cookie the jar adds. */
  headers: RequestHeaders;
  /** The headers reqflow adds itself when the request has none of that name (User-Agent, Accept). */
  added: RequestHeaders;
  /** The names of the headers that hold a credential, which reqflow never carries to another origin on a redirect. */
  credentials: string[];
  body?: string | Buffer;
  /** The body's pieces when it includes files (`< ./file`): which bytes are which file. */
  pieces?: readonly BodyPiece[];
  /** Instead of `body`: a large file sent as it is read (`< ./big.bin`), named and never read here. */
  file?: FileBody;
  /** `require`: the request line says HTTP/2; `prefer`: --http2 or the profile; `never`: the request line says HTTP/1.1. */
  http2?: Http2Mode | 'never';
  followRedirects: boolean;
  maxTimeMs?: number;
  /** TLS settings after merging profile, request and -k (absolute paths). */
  tls: TlsSettings;
  proxy?: URL;
  /** It goes direct although the environment names a proxy (another client would take it). */
  directDespiteEnvironment: boolean;
  socketPath?: string;
  /**
   * Digest auth: the request goes out without credentials and the send stage answers the
   * server's challenge with these (src/plugins/auth-digest), so they are in no header here.
   */
  digest?: DigestCredentials;
}

/** What the run shares that the send stage would use. */
export interface OutgoingServices {
  proxy?: ProxyRules;
  cookies?: CookieStore;
  env?: NodeJS.ProcessEnv;
  /** The run's secrets, for the send stage's rule of which headers are credentials (else the request's `redact` tells). */
  secrets?: Pick<SecretRegistry, 'carries'>;
}

const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'all_proxy'];

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined; // shown as it is; --as curl refuses it (parseRequestUrl)
  }
}

/** The headers the send stage would keep to the request's origin (src/core/request-secrets.ts: one rule for both). */
function credentialHeaders(ctx: RequestContext, headers: Readonly<RequestHeaders>, run: OutgoingServices): string[] {
  const secrets = run.secrets ?? { carries: (text: string): boolean => ctx.redact(text) !== text };
  return Object.keys(headers).filter((name) => fieldLines(headers[name] as HeaderValue).some((line) => isCredentialHeader(name, line, ctx.credentialHeaders, secrets)));
}

export async function outgoingRequest(ctx: RequestContext, run: OutgoingServices): Promise<OutgoingRequest> {
  const { spec } = ctx;
  const url = parsedUrl(spec.url);
  const settings = requestSettings(spec, ctx.options, ctx.profile);
  const headers: RequestHeaders = { ...spec.headers };
  const file = spec.bodyFile?.stillBodyOf(spec);
  // What the send stage would refuse is refused here too, as it would be: printed, a value with a line break would read as two headers.
  // The jar's cookie is a server's bytes, sent back as they came (src/core/http/send.ts): not the request's to check.
  if (url) checkHeaderFields(spec.method, url, headers, file ?? spec.body);
  // The jar's cookies go out unless the request writes its own Cookie (src/core/http/send.ts).
  if (url && run.cookies && spec.annotations['no-cookie-jar'] === undefined && !hasHeader(headers, 'cookie')) {
    const cookie = await run.cookies.header(url.href);
    if (cookie !== undefined) headers.Cookie = cookie;
  }
  const withDefaults = withDefaultHeaders(headers);
  const added: RequestHeaders = {};
  for (const [name, value] of Object.entries(withDefaults)) if (!hasHeader(headers, name)) added[name] = value;
  const proxy = url && settings.socketPath === undefined ? (ctx.proxy ?? run.proxy)?.forUrl(url) : undefined;
  const env = run.env ?? {};
  const request: OutgoingRequest = {
    name: spec.name,
    method: spec.method,
    url: spec.url,
    headers: headersAsSent(headers, settings.http2 === 'require' ? '2' : undefined),
    added,
    credentials: credentialHeaders(ctx, headers, run),
    followRedirects: settings.followRedirects,
    tls: ctx.tls,
    directDespiteEnvironment: proxy === undefined && PROXY_VARIABLES.some((name) => Boolean(env[name] || env[name.toUpperCase()])),
  };
  if (file) request.file = file;
  else if (spec.body !== undefined) request.body = spec.body;
  if (ctx.bodyPieces && ctx.bodyPieces.body === spec.body) request.pieces = ctx.bodyPieces.pieces;
  if (settings.http2 !== undefined) request.http2 = settings.http2;
  if (settings.maxTimeMs !== undefined) request.maxTimeMs = settings.maxTimeMs;
  if (proxy) request.proxy = proxy;
  if (settings.socketPath !== undefined) request.socketPath = settings.socketPath;
  const digest = ctx.state['auth-digest'] as DigestCredentials | undefined;
  if (digest) request.digest = digest;
  return request;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8, else undefined. */
export function utf8Text(bytes: Buffer): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
