/**
 * The replayed requests of a stress run: each worker its own connection, each turn the prepared
 * bytes sent and the response counted — its status, its latency, or the failure in the kinds the
 * loop's requests are counted in (one-hop.ts words the error). What the loop would keep from a
 * response and a later request could carry — a `Set-Cookie` for a request that uses the cookie
 * jar, a token the extraction stores in the session — is stored as the loop stores it, and ends
 * the replay: the next requests go through the loop.
 */
import { ExitCode } from '../../core/errors/index.js';
import { requestError } from '../../core/http/hop-failures.js';
import { extractToken } from '../../core/token-extraction.js';
import type { StressStats } from '../stats.js';
import { ReplayConnection, type ReplayResponse } from './connection.js';
import type { ReplayTarget } from './prepare.js';

/** The values of one header's lines, from the parser's name, value, name, value… */
function headerLines(headers: readonly string[], name: string): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) if ((headers[i] as string).toLowerCase() === name) lines.push(headers[i + 1] as string);
  return lines;
}

export class Replay {
  private readonly connections = new Map<number, ReplayConnection>();
  private ended = false;
  /** Why the replay ended before the run did. */
  endedBecause: string | undefined;
  /** Requests replayed so far. */
  count = 0;

  /** Ctrl-C (Esc in the TUI): the requests in flight are cancelled, as the loop cancels its own. */
  private readonly onAbort = (): void => this.close();

  constructor(
    private readonly target: ReplayTarget,
    private readonly stats: StressStats,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** False once the replay has ended: the turn goes through the loop. */
  get active(): boolean {
    return !this.ended && !this.signal.aborted;
  }

  /** One request on worker `worker`'s connection, counted unless the run was cancelled under it. */
  async send(worker: number): Promise<void> {
    let connection = this.connections.get(worker);
    if (!connection) this.connections.set(worker, (connection = new ReplayConnection(this.target)));
    try {
      const response = await connection.send();
      await this.keep(response);
      this.count++;
      this.stats.record({ exitCode: response.status >= 400 ? ExitCode.httpFailure : ExitCode.ok, response: { status: response.status } }, response.latencyMs);
    } catch (caught) {
      if (this.signal.aborted) return; // cancelled: not a result
      const error = await requestError(caught, this.target.errorTarget, this.target.timeoutMs);
      this.count++;
      this.stats.record({ exitCode: error.exitCode, error }, undefined);
    }
  }

  /**
   * What the loop would have kept of the response (the jar's cookies, the session's token);
   * keeping any ends the replay, and so does a compressed body (the loop decodes it, and a
   * corrupt one fails there).
   */
  private async keep(response: ReplayResponse): Promise<void> {
    const { cookies, session } = this.target;
    const setCookie = cookies ? headerLines(response.headers, 'set-cookie') : [];
    if (cookies && setCookie.length > 0) {
      this.end('the server set a cookie: the next requests carry it');
      await cookies.store(this.target.url.href, setCookie);
    }
    if (headerLines(response.headers, 'content-encoding').some((coding) => coding.trim().toLowerCase() !== 'identity')) return this.end('a response came compressed: the loop decodes the next ones');
    if (session && response.body !== undefined && extractToken(response.body, session) !== undefined) this.end('a response held a token, stored in the session: the next requests may carry it');
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.endedBecause = reason;
  }

  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.ended = true;
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
  }
}
