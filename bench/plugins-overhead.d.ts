export interface RunStats {
  mean: number;
  median: number;
  sd: number;
  min: number;
  max: number;
}

export interface PluginsOverhead {
  runs: number;
  /** The fast path with plugin loading replaced by "none". */
  withoutCheck: RunStats;
  /** bin/run.cjs with no plugin installed. */
  withCheck: RunStats;
  /** bin/run.cjs with plugins/auth-hmac linked (absent when the plugin is not built). */
  withPlugin?: RunStats;
  /** (withCheck − withoutCheck) / withoutCheck, in percent, of the medians. */
  overheadPercent: number;
  /** The same, of the means. */
  meanOverheadPercent: number;
  /** The same, of the fastest runs. */
  minOverheadPercent: number;
  /** One `hasUserPlugins()` call, timed in-process. */
  checkMicroseconds: number;
  note?: string;
}

export function measurePluginsOverhead(options?: { runs?: number; withPlugin?: boolean }): Promise<PluginsOverhead>;
export function formatPluginsOverhead(result: PluginsOverhead): string;
