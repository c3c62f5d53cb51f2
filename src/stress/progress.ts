/** The live line of a stress run on a terminal's stderr, redrawn in place; nothing when stderr is not a terminal. */
import type { StressStats } from './stats.js';

const EVERY_MS = 250;

export function liveProgress(stats: StressStats, stream: { isTTY?: boolean; write(text: string): unknown }, plannedMs: number | undefined, startedAt: number): () => void {
  if (stream.isTTY !== true) return () => undefined;
  const draw = (): void => {
    const now = stats.progress();
    const elapsed = ((performance.now() - startedAt) / 1000).toFixed(1);
    const of = plannedMs !== undefined ? `/${(plannedMs / 1000).toFixed(0)} s` : ' s';
    const p95 = now.p95 !== undefined ? `, p95 ${now.p95.toFixed(1)} ms` : '';
    stream.write(`\r\u001b[Kstress: ${now.count} requests, ${now.errors} errors, ${now.rps.toFixed(0)} req/s${p95} — ${elapsed}${of} (Ctrl-C stops)`);
  };
  const timer = setInterval(draw, EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    stream.write('\r\u001b[K');
  };
}
