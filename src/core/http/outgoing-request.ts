/** A request as the HTTP client sends it: what it says, and the hooks each hop tells. */
import type { AbortHooks } from '../abort-hooks.js';
import type { RequestHeaders } from '../headers.js';
import type { FileBody, TlsConnectionOptions } from '../model.js';
import type { CookieStore } from './cookie-jar.js';
import type { Http2Mode } from './http2.js';
import type { ProxyRules } from './proxy.js';

export interface OutgoingRequest {
  method: string;
  url: string;
  /** `OPTIONS *`: the target is `*` (not on a redirect: requestTarget). */
  asteriskForm?: boolean;
  headers: RequestHeaders;
  /** A file body is opened again by each hop (a redirect's, a resend's). */
  body?: string | Buffer | FileBody;
  /** TLS verification cannot be turned off for this request (an OAuth endpoint): its errors never suggest it. */
  verifyAlways?: true;
  tls: TlsConnectionOptions;
  timeoutMs: number;
  /** Time-out for the connection alone (TCP and TLS), when shorter than `timeoutMs`. */
  connectTimeoutMs?: number;
  /** `--max-time`: the whole request, body included, must be done within this (not for streams). */
  maxTimeMs?: number;
  followRedirects: boolean;
  /** The run's cancellation (Ctrl-C, Esc in the TUI). */
  abort?: AbortHooks;
  /** Headers that must not follow a redirect to another origin, beyond Authorization, Cookie and Proxy-Authorization. */
  isSecretHeader?: (name: string, value: string) => boolean;
  /** The `Authorization` of each hop, for its method and URL (HttpRequest's `authorization`). */
  authorization?: (method: string, url: URL) => string | undefined;
  /** Told of each redirect followed, and of the headers dropped on it. */
  onRedirect?: (to: URL, dropped: string[]) => void;
  /** Streaming responses (SSE) must not time out between events once the headers are in. */
  keepAliveAfterHeaders?: boolean;
  /** Keep a copy of the body up to this many bytes (a chained request's checks read it), whatever its type. */
  recordLimit?: number;
  /** Keep a copy of the first this many bytes of any body, however large (the history's). */
  recordHead?: number;
  /** Which proxy each hop goes through (`--proxy`, `*_proxy`, `no_proxy`). */
  proxy?: ProxyRules;
  /** Told of the proxy a hop goes through (for `-v`). */
  onProxy?: (proxy: URL, target: URL) => void;
  /** The run's cookie jar: its cookies go out with each hop (unless the request has its own `Cookie`), `Set-Cookie`s come in. */
  cookies?: CookieStore;
  /**
   * The jar's `Cookie` for this hop: what servers set, as Node read their bytes (one character
   * a byte), sent back as those bytes — not checked as the request's own headers are, which may
   * hold nothing past ASCII.
   */
  cookie?: string;
  /**
   * HTTP/2: `require` (the request line says so), `prefer` (`--http2`, the profile), `never`
   * (the request line says HTTP/1.1). Absent: HTTP/1.1, or HTTP/2 for an https:// server that
   * refuses HTTP/1.1 in the TLS handshake (nothing was sent then).
   */
  http2?: Http2Mode | 'never';
  /**
   * Told when a request goes once more on a new connection (for `-v`), with what the server did
   * (`closed the kept-alive connection as the GET went out`, `refused the POST (HTTP/2
   * REFUSED_STREAM)`): idempotent.ts's rules, one-hop.ts's and http2-hop.ts's words.
   */
  onResend?: (url: URL, what: string) => void;
  /** Told when a server turned out to speak only HTTP/2 (for `-v`). */
  onProtocol?: (url: URL, version: '2') => void;
  /** `--unix-socket`: connect here instead of the URL's host (no proxy, HTTP/1.1). */
  socketPath?: string;
  /** Told when each HTTP/1.1 hop's headers arrive how long its phases took (the TUI's `t`); unset, nothing is measured. */
  onPhases?: (phases: ConnectionPhases) => void;
}

/** Milliseconds from a hop's start to each event; a kept-alive socket has no DNS, connect or TLS. */
export interface ConnectionPhases {
  dns?: number;
  connect?: number;
  tls?: number;
  firstByte: number;
  reused: boolean;
}

/** What errors name: the request, and whether a client certificate or a Unix socket was in play. */
