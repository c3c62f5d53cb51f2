/**
 * One request from the proxy to the server behind it, guarded against a server that misbehaves:
 * one silent for the time-out (connecting, before its answer, within its body), one that sends
 * more than 100 interim responses, a `101` nobody asked for (the proxy drops `Upgrade`), a status
 * below 100. Each ends the request with an error for `failed`; a usable answer goes to `answered`.
 */
import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { NetworkError } from '../core/errors/index.js';
import { codedError } from '../core/http/hop-failures.js';
import { interimFlood, MAX_INTERIM_RESPONSES } from '../core/http/interim-flood.js';

export interface UpstreamRequest {
  url: URL;
  method: string;
  /** Node's flat raw-header list, `Host` first. */
  headers: string[];
  agents: { http: Agent; https: Agent };
  timeoutMs: number;
}

export function openUpstream(target: UpstreamRequest, answered: (answer: IncomingMessage) => void, failed: (error: unknown, request: ClientRequest) => void): ClientRequest {
  const { url, method } = target;
  const https = url.protocol === 'https:';
  const upstream = (https ? httpsRequest : httpRequest)({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method,
    headers: target.headers,
    setHost: false,
    agent: https ? target.agents.https : target.agents.http,
  });
  upstream.on('error', (error) => failed(error, upstream));
  // A server that never answers, or stops half-way, must not hold the client (and a socket) for ever.
  upstream.setTimeout(target.timeoutMs, () => upstream.destroy(codedError('timed out', 'REQFLOW_TIMEOUT')));
  // Interim responses are not passed on, and each resets the silence: an endless stream of them must end.
  let interim = 0;
  upstream.on('information', () => {
    if (++interim > MAX_INTERIM_RESPONSES) upstream.destroy(interimFlood());
  });
  // Without a listener Node would leave the exchange hanging.
  upstream.on('upgrade', (answer, socket) => {
    socket.destroy();
    failed(new NetworkError(`${method} ${url.origin}${url.pathname}: the server switched protocols (${answer.statusCode ?? 101}) without being asked`), upstream);
  });
  upstream.on('response', (answer) => {
    // `099` or `000` is no status; Node would throw writing it on (and the proxy would stop).
    if ((answer.statusCode ?? 0) < 100) {
      upstream.destroy(codedError(String(answer.statusCode ?? 0), 'REQFLOW_BAD_STATUS'));
      return;
    }
    answered(answer);
  });
  return upstream;
}
