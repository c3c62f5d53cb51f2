import { NetworkError, UsageError } from '../errors/index.js';
import type { ResponseInfo } from '../model.js';
import { isEventStream } from '../content-type.js';
import { AbortHooks } from '../abort-hooks.js';
import { fieldLines, type RequestHeaders } from '../headers.js';
import { maskUrl } from '../mask.js';
import { VERSION } from '../version.js';
import type { AgentPool } from './agents.js';
import { once } from './one-hop.js';
import type { OutgoingRequest } from './outgoing-request.js';
import { toResponseInfo } from './response-body.js';
import { portOutOfRange } from './url-port.js';

const MAX_REDIRECTS = 10;
const SUPPORTED = new Set(['http:', 'https:']);

/** Validates a URL once, where it enters the wire: exit 2 for text that is not an http(s) URL. A new object each call: callers may change it. */
export function parseRequestUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // WHATWG URL says only "Invalid URL" for a port past 65535: not a missing {{baseUrl}}.
    const port = portOutOfRange(text);
    if (port !== undefined) throw new UsageError(`port ${port} is out of range (1–65535) in ${maskUrl(text)}`, { atRequest: true });
    throw new UsageError(`not a valid URL: "${maskUrl(text)}"`, { hint: 'URLs must be absolute, e.g. http://localhost:3000/path (is a {{baseUrl}} variable missing?)', atRequest: true });
  }
  if (!SUPPORTED.has(url.protocol)) throw new UsageError(`unsupported URL scheme "${url.protocol.replace(/:$/, '')}" in ${maskUrl(text)}`, { hint: 'reqflow sends http:// and https:// requests', atRequest: true });
  return url;
}

/**
 * What every request reqflow sends carries unless the request sets its own: plain requests,
 * streams (SSE, GraphQL subscriptions) and a plugin's own calls alike.
 */
export function withDefaultHeaders(headers: Readonly<RequestHeaders>): RequestHeaders {
  const out = { ...headers };
  let agent = false;
  let accept = false;
  for (const name in out) {
    const lower = name.toLowerCase();
    if (lower === 'user-agent') agent = true;
    else if (lower === 'accept') accept = true;
  }
  if (!agent) out['User-Agent'] = `reqflow/${VERSION}`;
  if (!accept) out.Accept = '*/*';
  return out;
}

/** Does the request carry a Cookie header of its own? (A walk of the names: no key array per request.) */
function hasCookieHeader(headers: Readonly<RequestHeaders>): boolean {
  for (const name in headers) if (name.length === 6 && name.toLowerCase() === 'cookie') return true;
  return false;
}

/** Where a redirect points: an http(s) URL, or exit 4 showing the value the server sent. */
function redirectTarget(locations: string | string[], from: URL): URL {
  // Two Locations that differ: which one the server meant is anyone's guess (browsers refuse it too).
  const location = typeof locations === 'string' ? locations : (locations[0] ?? '');
  if (typeof locations !== 'string' && locations.some((other) => other !== location)) {
    throw new NetworkError(`the server redirected to ${locations.length} different locations: ${locations.map((value) => JSON.stringify(maskUrl(value).slice(0, 200))).join(', ')}`, { hint: 'run without -L to see the response itself' });
  }
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NetworkError(`the server redirected to a malformed location: ${JSON.stringify(maskUrl(location).slice(0, 200))}`, { hint: 'run without -L to see the response itself' });
  }
  if (!SUPPORTED.has(next.protocol)) throw new NetworkError(`the server redirected to a location that is not http(s): ${JSON.stringify(maskUrl(location).slice(0, 200))}`, { hint: 'run without -L to see the response itself' });
  return next;
}

/** Sends one request and resolves when the response headers arrive; the body is left as a stream. */
export function sendHttp(request: OutgoingRequest, agents: AgentPool): Promise<ResponseInfo> {
  return agents.inFlight.watch(request, sendTimed(request, agents));
}

function sendTimed(request: OutgoingRequest, agents: AgentPool): Promise<ResponseInfo> {
  // A `# @streaming` request too: --max-time is lifted only when the answer is an event stream (below).
  const deadline = request.maxTimeMs !== undefined ? startDeadline(request.maxTimeMs, request.abort) : undefined;
  if (!deadline) return sendWithDeadline(request, agents, undefined);
  return sendWithDeadline(request, agents, deadline).catch((error: unknown) => {
    deadline.clear();
    throw deadline.fired() ? maxTimeError(request) : error;
  });
}

function maxTimeError(request: OutgoingRequest): NetworkError {
  return new NetworkError(`${request.method} ${maskUrl(request.url)} took longer than --max-time (${request.maxTimeMs ?? 0} ms)`, { hint: 'raise --max-time, or leave it out for no total limit' });
}

/** A per-request deadline: its own cancellation (linked to the run's) that fires at `maxTimeMs`. */
interface Deadline {
  hooks: AbortHooks;
  fired(): boolean;
  /** Stops the clock; Ctrl-C still cancels through `hooks`. */
  disarm(): void;
  clear(): void;
}

function startDeadline(maxTimeMs: number, run: AbortHooks | undefined): Deadline {
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort();
  }, maxTimeMs);
  timer.unref();
  const stopRun = run?.whenAborted(() => controller.abort());
  if (run?.signal.aborted) controller.abort();
  return {
    hooks: new AbortHooks(controller.signal),
    fired: () => fired,
    disarm: () => clearTimeout(timer),
    clear: () => {
      clearTimeout(timer);
      stopRun?.();
    },
  };
}

async function sendWithDeadline(request: OutgoingRequest, agents: AgentPool, deadline: Deadline | undefined): Promise<ResponseInfo> {
  let url = parseRequestUrl(request.url);
  let method = request.method;
  let body = request.body;
  let headers = withDefaultHeaders(request.headers);
  let hopRequest: OutgoingRequest = { ...request, headers };
  if (deadline) hopRequest.abort = deadline.hooks;
  // A Cookie header the request file wrote is sent as written: the jar adds nothing to it.
  const jar = request.cookies && !hasCookieHeader(request.headers) ? request.cookies : undefined;
  for (let hop = 0; ; hop++) {
    const started = process.hrtime.bigint(); // not performance.now(): perf_hooks costs start-up time
    const cookie = jar ? await jar.header(url.href) : undefined;
    const authorization = request.authorization?.(method, url); // digest: computed for this hop's target
    if (authorization) headers.Authorization = authorization;
    const response = await once(cookie ? { ...hopRequest, cookie } : hopRequest, url, agents);
    const setCookie = response.headers['set-cookie'];
    if (jar && setCookie) await jar.store(url.href, setCookie);
    const location = response.headers.location as string | string[] | undefined; // repeated: raw-response.ts
    if (request.followRedirects && location && [301, 302, 303, 307, 308].includes(response.statusCode)) {
      if (hop >= MAX_REDIRECTS) throw new NetworkError(`too many redirects (more than ${MAX_REDIRECTS}) from ${maskUrl(request.url)}`);
      response.body.resume();
      const next = redirectTarget(location, url);
      headers = { ...headers };
      if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        // The body's framing goes with it: a written Transfer-Encoding would send a GET an empty chunked body.
        for (const name of Object.keys(headers)) if (/^(content-(length|type)|transfer-encoding)$/i.test(name)) delete headers[name];
      }
      // Never carry credentials to another origin (scheme, host or port): nothing is signed again
      // either, and none the Location names (`http://user:pass@other/`) are sent, as curl does.
      const dropped: string[] = [];
      let tls = hopRequest.tls;
      if (next.origin !== url.origin) {
        if (next.username !== '' || next.password !== '') {
          next.username = '';
          next.password = '';
          dropped.push('the credentials in the Location');
        }
        // Nor is the client certificate presented there: it says who you are, as a header would.
        if (tls.cert !== undefined || tls.key !== undefined || tls.pfx !== undefined) {
          const { cert: _cert, key: _key, pfx: _pfx, passphrase: _passphrase, ...kept } = tls;
          tls = kept;
          dropped.push('the client certificate');
        }
        for (const [name, value] of Object.entries(headers)) {
          if (/^(authorization|cookie|proxy-authorization)$/i.test(name) || fieldLines(value).some((line) => request.isSecretHeader?.(name, line) === true)) {
            delete headers[name];
            dropped.push(name);
          }
        }
      }
      request.onRedirect?.(next, dropped);
      url = next;
      hopRequest = { ...request, method, headers, tls };
      if (deadline) hopRequest.abort = deadline.hooks;
      if (body === undefined) delete hopRequest.body;
      continue;
    }
    const onDeadline = deadline ? (): Error => maxTimeError(request) : undefined;
    const info = toResponseInfo(response, Number(process.hrtime.bigint() - started) / 1e6, { method, url, recordLimit: hopRequest.recordLimit, recordHead: hopRequest.recordHead }, hopRequest.abort, onDeadline && deadline ? { fired: deadline.fired, error: onDeadline } : undefined);
    if (deadline) info.stream?.once('close', deadline.clear);
    // An event stream runs until --stream-timeout or --max-events (docs/streaming.md), not --max-time.
    if (deadline && request.keepAliveAfterHeaders && isEventStream(info)) deadline.disarm();
    if (cookie) info.cookieSent = cookie;
    return info;
  }
}

