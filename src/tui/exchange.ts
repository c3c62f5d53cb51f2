import type { RequestSpec } from '../core/model.js';
import type { RequestOutcome } from '../report/reporter.js';
import type { RequestPreview } from './preview.js';
import type { ResponseCapture } from './response-capture.js';

/** A request another one referred to, which ran first for it (chaining). */
export interface RanFirst {
  name: string;
  /** `200 OK`, or the error that stopped it. */
  result: string;
  failed: boolean;
}

/** One send of a request: running, or finished (its outcome in). */
export interface Exchange {
  spec: RequestSpec;
  file: string;
  capture: ResponseCapture;
  controller: AbortController;
  /** `performance.now()` when it started: the live elapsed time while it runs. */
  startedAt: number;
  /** The profile and environment it was sent with: the request pane shows it as sent only while they are current. */
  context: string;
  /** The requests that ran first for it (it refers to their responses), in the order they ran. */
  ranFirst: RanFirst[];
  outcome?: RequestOutcome;
  sent?: RequestPreview;
  /** The user pressed Esc. */
  cancelled?: boolean;
  /** Restored from the history (`H`): when it was sent. */
  restored?: string;
  /**
   * Restored from an entry whose error records no exit code (edited by hand, an older reqflow's):
   * the pane says so, not the exit its error object must carry (70, an internal error's).
   */
  exitUnrecorded?: true;
}
