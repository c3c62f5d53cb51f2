import { dirname } from 'node:path';
import { loadEnvironment } from '../core/environments.js';
import type { RequestSpec } from '../core/model.js';
import { previewRequest } from './preview.js';
import { requestText } from './views/format.js';
import type { Workspace } from './workspace.js';

/**
 * The request pane's substitution preview of the selected request. Substitution may read the
 * session and the environment, so it is computed off the key path; only the newest asked for
 * is kept.
 */
export class Previews {
  /** The preview computed last, by row key. */
  value?: { key: string; text: string };
  private seq = 0;

  /** The profile, the session or the environment changed: previews are recomputed. */
  clear(): void {
    delete this.value;
  }

  /** Computes the preview of `spec` for the row `key`; `ready` is called with the key when it is in. */
  schedule(spec: RequestSpec, key: string, workspace: Workspace, ready: (key: string) => void, fail: (error: unknown) => void): void {
    const seq = ++this.seq;
    const { profile, session } = workspace;
    // The environment (`--env`, or picked with e) is read as a send reads it, from the request's folder.
    loadEnvironment(dirname(spec.source.file), workspace.options.environment)
      .then((environment) => previewRequest(spec, { profile, session, cliVariables: workspace.options.cliVariables, env: workspace.config.env, ...(environment ? { environment } : {}) }))
      .then((preview) => {
        if (seq !== this.seq) return;
        this.value = { key, text: requestText(preview, false) };
        ready(key);
      })
      .catch(fail);
  }
}
