/**
 * How a stress run sends its requests (docs/stress.md). The first request goes through the whole
 * loop alone — the probe — while the other workers wait for it; from its context the run decides
 * whether the request may be replayed (`replay/full-path-reason.ts`) and prepares it
 * (`replay/prepare.ts`). Then every turn either writes the prepared bytes on the worker's
 * connection (`replay/replay.ts`) or, when the request must be resolved each time, goes through
 * the loop as `reqflow run` sends it. A probe without a response (the server is down) decides
 * nothing: the workers go on through the loop, and the next request with a response decides.
 */
import type { RequestSpec } from '../core/model.js';
import type { RequestContext } from '../pipeline/context.js';
import type { RunServices } from '../pipeline/create-context.js';
import { fullPathReason } from './replay/full-path-reason.js';
import { prepareReplay } from './replay/prepare.js';
import { Replay } from './replay/replay.js';
import type { StressStats } from './stats.js';
import type { StressSummary } from './summary.js';

export class Sending {
  private replay: Replay | undefined;
  private decision: Promise<void> | undefined;
  private probe: Promise<void> | undefined;
  private loopReason: string | undefined;
  /** Requests that went through the loop. */
  private loop = 0;

  constructor(
    private readonly spec: RequestSpec,
    private readonly services: RunServices,
    private readonly stats: StressStats,
    private readonly signal: AbortSignal,
  ) {}

  /** Told of each request that went through the loop, with its context: the first with a response decides. */
  looped(ctx: RequestContext, responded: boolean): void {
    this.loop++;
    if (responded && !this.signal.aborted) this.decision ??= this.decide(ctx);
  }

  /** One turn of worker `worker`: replayed, or `loop()` (a request through the whole loop). */
  async send(worker: number, loop: () => Promise<unknown>): Promise<void> {
    if (this.decision === undefined) {
      if (!this.probe) {
        this.probe = (async () => {
          await loop();
          await this.decision;
        })().finally(() => {
          if (this.decision === undefined) this.probe = undefined; // no response: the next request probes again
        });
        return this.probe;
      }
      await this.probe;
    }
    if (this.replay?.active) return this.replay.send(worker);
    await loop();
  }

  private async decide(ctx: RequestContext): Promise<void> {
    try {
      const reason = await fullPathReason(this.spec, ctx, this.services);
      if (reason !== undefined) return void (this.loopReason = reason);
      const prepared = await prepareReplay(ctx, this.services);
      if ('reason' in prepared) return void (this.loopReason = prepared.reason);
      this.replay = new Replay(prepared.target, this.stats, this.signal);
    } catch (error) {
      this.loopReason = `the request could not be prepared for replay (${error instanceof Error ? error.message : String(error)})`;
    }
  }

  /** Closes the replay's connections. */
  close(): void {
    this.replay?.close();
  }

  figures(): StressSummary['sending'] {
    const loopReason = this.loopReason ?? this.replay?.endedBecause;
    return { replayed: this.replay?.count ?? 0, loop: this.loop, ...(loopReason !== undefined ? { loopReason } : {}) };
  }
}
