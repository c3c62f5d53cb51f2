import { setTimeout as wait } from 'node:timers/promises';
import type { Plugin } from '../../pipeline/plugin.js';
import { RATE_LIMIT } from '../rate-limit-syntax.js';

/** One slot's settings and when its requests went, oldest first (performance.now()). */
interface Slot {
  minIdleMs: number;
  max: number;
  expireMs: number;
  sent: number[];
}

/** The run's slots by name (`ctx.runState`): requests naming one slot are paced together, as httpyac's user session per slot. */
type Slots = Map<string, Slot>;

/** How long to wait before the slot lets a request go now; 0: it may go. Drops what no longer counts. */
function waitFor(slot: Slot, now: number): number {
  // httpyac's `removeExpiredRequests`: past `expire` a request no longer counts; without one only the last does.
  if (slot.expireMs > 0) while (slot.sent.length > 0 && now - (slot.sent[0] as number) >= slot.expireMs) slot.sent.shift();
  else slot.sent.splice(0, slot.sent.length - 1);
  if (slot.max > 0 && slot.sent.length >= slot.max) return (slot.sent[0] as number) + slot.expireMs - now;
  const last = slot.sent.at(-1);
  return last !== undefined && slot.minIdleMs > 0 ? last + slot.minIdleMs - now : 0;
}

/**
 * httpyac's `# @ratelimit [slot NAME] [minIdleTime MS] [max N expire MS]`: before it goes out,
 * a request waits until the slot's last request is `minIdleTime` ms old and fewer than `max`
 * of its requests went within the last `expire` ms (`rateLimitMetaDataHandler.ts`). Pacing only:
 * what is sent is the same. The value was checked as the file was read (format-http); a dry run
 * sends nothing, so it neither waits nor counts.
 */
export const rateLimitPlugin: Plugin = {
  name: 'ratelimit',
  stages: {
    transform: async (ctx) => {
      if (ctx.options.dryRun) return;
      const groups = RATE_LIMIT.exec(ctx.spec.annotations.ratelimit ?? '')?.groups ?? {};
      const slots = (ctx.runState.ratelimit ??= new Map()) as Slots;
      const name = groups.slot ?? 'rateLimit';
      const slot = slots.get(name) ?? { minIdleMs: 0, max: 0, expireMs: 0, sent: [] };
      // As httpyac: the request's own numbers are the slot's from now on.
      Object.assign(slot, { minIdleMs: Number(groups.minIdleTime || 0), max: Number(groups.max || 0), expireMs: Number(groups.expire || 0) });
      slots.set(name, slot);
      // Each turn waits for a time that has to pass, and then looks again (another request may have taken the turn).
      for (let ms = waitFor(slot, performance.now()); ms > 0; ms = waitFor(slot, performance.now())) {
        if (ctx.signal.aborted) return; // Ctrl-C: the send after it sees the same signal and says so
        await wait(Math.ceil(ms), undefined, { signal: ctx.signal }).catch(() => undefined);
      }
      slot.sent.push(performance.now());
    },
  },
};
