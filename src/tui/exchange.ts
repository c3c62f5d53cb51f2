import type { RequestSpec } from '../core/model.js';
import type { RequestOutcome } from '../report/reporter.js';
import type { RequestPreview } from './preview.js';
import type { ResponseCapture } from './response-capture.js';

/** The response shown in the response pane: the one running, or the last one. */
export interface Exchange {
  spec: RequestSpec;
  file: string;
  capture: ResponseCapture;
  controller: AbortController;
  outcome?: RequestOutcome;
  sent?: RequestPreview;
  /** The user pressed Esc. */
  cancelled?: boolean;
  /** Restored from the history (`H`): when it was sent. */
  restored?: string;
}
