/**
 * Requests under way, and the guard that fails those nothing can settle any more. Node ends a
 * process whose event loop is empty even with a promise pending: a request whose connection went
 * quiet without closing — nothing reading, no timer running — would end the run there, exit 0
 * and no output, the rest of the file never sent. At 'beforeExit' (the loop is empty) each
 * request still under way fails instead (exit 4), and the run goes on with the next one.
 */
import type { Readable } from 'node:stream';
import { NetworkError } from '../errors/index.js';
import { maskUrl } from '../mask.js';
import type { ResponseInfo } from '../model.js';

export class InFlight {
  /** How each request under way fails: before its head, its promise; after, its body. */
  private readonly stuck = new Set<() => void>();
  /**
   * Those stuck now, a turn later: what another 'beforeExit' listener started settles first, in
   * its own words (an HTTP/2 session nghttp2 ended, http2.ts) — failing a settled one does
   * nothing — and a request the run starts meanwhile is not one of them.
   */
  private readonly failAll = (): void => {
    const stuck = [...this.stuck];
    setImmediate(() => stuck.forEach((fail) => fail()));
  };

  /** `sent` resolved or rejected as it is, or failed if the loop empties while it (or its body) is under way. */
  watch(request: { method: string; url: string }, sent: Promise<ResponseInfo>): Promise<ResponseInfo> {
    return new Promise((resolve, reject) => {
      const beforeHead = (): void => {
        this.remove(beforeHead);
        reject(stalled(request));
      };
      this.add(beforeHead);
      sent.then(
        (info) => {
          this.remove(beforeHead);
          const body = info.stream;
          if (body && !body.destroyed) this.watchBody(request, body);
          resolve(info);
        },
        (error: unknown) => {
          this.remove(beforeHead);
          reject(error);
        },
      );
    });
  }

  private watchBody(request: { method: string; url: string }, body: Readable): void {
    const fail = (): void => void body.destroy(stalled(request));
    this.add(fail);
    body.once('close', () => this.remove(fail));
  }

  private add(fail: () => void): void {
    if (this.stuck.size === 0) process.on('beforeExit', this.failAll);
    this.stuck.add(fail);
  }

  private remove(fail: () => void): void {
    if (this.stuck.delete(fail) && this.stuck.size === 0) process.off('beforeExit', this.failAll);
  }
}

function stalled(request: { method: string; url: string }): NetworkError {
  return new NetworkError(`${request.method} ${maskUrl(request.url)}: the connection went quiet without closing, and nothing more can arrive`, {
    hint: 'a broken server or connection: reqflow stopped waiting for it',
  });
}
