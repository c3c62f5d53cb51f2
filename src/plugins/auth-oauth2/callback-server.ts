import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthFlowError, type ReqflowError } from '../../core/errors/index.js';
import { formatDuration } from './token-store.js';

export interface CallbackOptions {
  /** Where to listen: a loopback http:// URL. Port 0 picks a free port (RFC 8252 §7.3). */
  redirectUrl: URL;
  /** The `state` sent with the authorization request. */
  state: string;
  /** Told of a callback with a wrong or missing `state` (refused; the wait goes on). */
  onStray?: () => void;
  timeoutMs: number;
  signal?: AbortSignal;
  profile: string;
  /** How the user tries again, for hints (the TUI: `press o`); default: the `reqflow oauth login` command. */
  retry?: string;
}

/** How the login ended after the callback: the browser's page says so, never more (no token, no secret). */
export type LoginOutcome = { ok: true } | { ok: false; reason: string };

export interface CallbackServer {
  /** The redirect URI to send (with the real port when port 0 was asked for). */
  redirectUri: string;
  /**
   * Resolves with the callback URL (it has a `code`); rejects on an error, a wrong state, time-out
   * or cancel. The browser's page waits for {@link CallbackServer.done}: it says whether the code
   * became a token, not merely that it arrived.
   */
  result: Promise<URL>;
  /** Answers the browser that brought the code, with how the token exchange ended. */
  done(outcome: LoginOutcome): void;
  /** Stops; a browser still waiting is told the login did not finish. */
  close(): Promise<void>;
}

const PAGE = (title: string, text: string): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>reqflow: ${title}</title></head>` +
  `<body style="font-family:sans-serif;margin:4em auto;max-width:32em;text-align:center"><h1>${title}</h1><p>${text}</p></body></html>`;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sameState(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `localhost` is served on both loopback addresses: browsers may try either. */
function bindAddresses(hostname: string): string[] {
  if (hostname === 'localhost') return ['127.0.0.1', '::1'];
  return [hostname.replace(/^\[|\]$/g, '')];
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.removeListener('error', onError);
      resolvePromise((server.address() as AddressInfo).port);
    });
  });
}

function listenError(error: NodeJS.ErrnoException, url: URL, port: number, profile: string): ReqflowError {
  const where = `${url.hostname}:${port}`;
  const hint = `set oauth.redirectUrl of profile "${profile}" to a free port (e.g. http://localhost:${port === 8080 ? 8081 : 8080}${url.pathname}) that the authorization server allows, or stop the program using port ${port}`;
  if (error.code === 'EADDRINUSE') return new AuthFlowError(`cannot receive the OAuth callback: port ${port} on ${url.hostname} is already in use`, { hint, cause: error });
  if (error.code === 'EACCES') return new AuthFlowError(`cannot receive the OAuth callback: no permission to listen on ${where}`, { hint, cause: error });
  return new AuthFlowError(`cannot receive the OAuth callback on ${where}: ${error.message}`, { hint, cause: error });
}

/**
 * A one-shot HTTP server on the loopback address for the browser's redirect back to reqflow.
 * It answers exactly one callback at the redirect path: a `code` with the right `state` ends the
 * wait with success, an `error` with the right `state` ends it with that error. A callback with
 * any other `state` (or none) gets an error page and its code is never used, and the wait goes on
 * until the right one or the time-out. Other paths get 404.
 */
export async function startCallbackServer(options: CallbackOptions): Promise<CallbackServer> {
  const { redirectUrl, state, profile } = options;
  const again = (cli: string, action: string): string => (options.retry ? `${options.retry} to ${action}` : cli);
  /** The browser that brought the code, waiting for the outcome of the exchange. */
  let waiting: ((outcome: LoginOutcome) => void) | undefined;
  const servers: Server[] = [];
  let settle: { resolve(url: URL): void; reject(error: ReqflowError): void } | undefined;
  const result = new Promise<URL>((resolvePromise, reject) => (settle = { resolve: resolvePromise, reject }));
  result.catch(() => undefined); // the caller may close before awaiting
  let finished = false;
  let base: URL = redirectUrl;

  const finish = (outcome: URL | ReqflowError): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (outcome instanceof URL) settle?.resolve(outcome);
    else settle?.reject(outcome);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const reply = (status: number, title: string, text: string): void => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' });
      res.end(PAGE(title, text));
    };
    const incoming = new URL(req.url ?? '/', base);
    if (incoming.pathname !== base.pathname || finished) return reply(404, 'Not found', 'This is reqflow\'s OAuth callback server.');
    if (req.method !== 'GET') return reply(405, 'Method not allowed', 'The OAuth callback is a GET request.');
    const params = incoming.searchParams;
    const code = params.get('code');
    const error = params.get('error');
    if (code === null && error === null) return reply(400, 'Not an OAuth callback', 'Expected a <code>code</code> or an <code>error</code> parameter.');
    const received = params.get('state');
    if (received === null || !sameState(received, state)) {
      // A stale tab or a forged request: refused, and the login goes on waiting for its own callback
      // (a stray request must not be able to abort someone's login); its code is never used.
      options.onStray?.();
      return reply(400, 'Login failed', 'The response does not belong to the login in progress (state mismatch). Nothing was stored; you can close this tab.');
    }
    if (error !== null) {
      const description = params.get('error_description');
      reply(400, 'Login failed', `${escapeHtml(error)}${description ? `: ${escapeHtml(description)}` : ''}. You can close this tab.`);
      const text = description ? `${error} (${description})` : error;
      return finish(
        error === 'access_denied'
          ? new AuthFlowError(`access denied: ${text}`, { hint: again(`run reqflow oauth login -p ${profile} again and approve the request`, 'log in again and approve the request') })
          : new AuthFlowError(`the authorization server refused the login: ${text}`, { hint: `check oauth.clientId, oauth.scope and oauth.redirectUrl of profile "${profile}"` }),
      );
    }
    // The page waits for the token exchange: "logged in" only once there is a token.
    waiting = (outcome) => {
      waiting = undefined;
      if (outcome.ok) reply(200, 'Logged in', 'reqflow received the token. You can close this tab.');
      else reply(502, 'Login failed', `reqflow received the authorization, but the token exchange failed: ${escapeHtml(outcome.reason)}. Nothing was stored; see reqflow for details. You can close this tab.`);
      wrapUp();
    };
    // The URL as registered (not the Host header the browser sent): openid-client derives redirect_uri from it.
    const callback = new URL(base.href);
    callback.search = incoming.search;
    finish(callback);
  };

  const timer = setTimeout(
    () =>
      finish(
        new AuthFlowError(`timed out after ${formatDuration(options.timeoutMs)} waiting for the browser to return to ${base.href}`, {
          hint: again(`run reqflow oauth login -p ${profile} again (with --no-browser, open the printed URL yourself)`, 'try again'),
        }),
      ),
    options.timeoutMs,
  );
  const onAbort = (): void => finish(new AuthFlowError('login cancelled'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  /** Stops listening; open connections end after their response (Connection: close), or at once when `hard`. */
  const stop = (hard: boolean): Promise<void> =>
    Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolvePromise) => {
            server.close(() => resolvePromise());
            if (hard) server.closeAllConnections();
            else server.closeIdleConnections();
          }),
      ),
    ).then(() => undefined);
  // Closing before a callback arrived cancels the wait; the servers stop once the wait is over.
  const close = async (): Promise<void> => {
    finish(new AuthFlowError('login cancelled'));
    waiting?.({ ok: false, reason: 'the login did not finish' });
  };
  const done = (outcome: LoginOutcome): void => waiting?.(outcome);

  const wanted = Number(redirectUrl.port || 80);
  let port = wanted;
  for (const [index, host] of bindAddresses(redirectUrl.hostname).entries()) {
    const server = createServer(handle);
    try {
      port = await listen(server, port, host);
      servers.push(server);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The second address of `localhost` (::1) is a courtesy: no IPv6 is fine.
      if (index > 0 && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue;
      await close();
      // The address already bound (127.0.0.1 when ::1 is taken) must not keep the process alive.
      await stop(true);
      throw listenError(error as NodeJS.ErrnoException, redirectUrl, port, profile);
    }
  }
  base = new URL(redirectUrl.href);
  base.port = String(port);
  // One callback only: stop listening as soon as the wait is over. The last page is still being
  // sent, so connections get a moment to finish before they are cut (a browser's pre-opened
  // sockets would otherwise keep the process alive).
  const wrapUp = (): void => {
    void stop(false);
    setTimeout(() => void stop(true), 500).unref();
  };
  // After a code: once the browser has its page (`waiting` wraps up); after anything else: now.
  result.then(() => undefined, wrapUp);
  return { redirectUri: base.href, result, done, close };
}
