import { VariableError } from '../../core/errors/index.js';
import type { Prompter } from '../../core/prompt.js';
import { PromptOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

/** The modal the pipeline asks interactive variables (and `# @note` confirmations) through; Esc or a cancelled request ends it. */
export function modalPrompter(app: AppHost, signal: AbortSignal): Prompter {
  return (request) =>
    new Promise((resolve, reject) => {
      const overlay = new PromptOverlay(app, request, (value) => {
        signal.removeEventListener('abort', onAbort);
        if (value === undefined) reject(new VariableError(`prompt for "${request.name}" was cancelled`, { hint: `pass it with -e ${request.name}=value, or answer the prompt` }));
        else {
          if (request.secret) app.workspace.secrets.add(value);
          resolve(value);
        }
      });
      const onAbort = (): void => overlay.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      app.open(overlay);
    });
}
