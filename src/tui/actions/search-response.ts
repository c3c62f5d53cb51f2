import type { Pager } from '../pager/pager.js';
import { LinePromptOverlay } from '../views/line-prompt.js';
import type { AppHost } from './host.js';

/** `/` on the response: asks for the text, highlights every match and shows the first (`n`/`N` move). */
export function searchResponse(app: AppHost, pager: Pager, redraw: () => void): void {
  const question = 'Search the response (no capital letter: any case)';
  app.open(
    new LinePromptOverlay(app, 'Search', { question, footer: 'Enter searches · Esc cancels · empty clears' }, (query) => {
      if (query === undefined) return;
      const said = pager.find(query);
      redraw();
      app.say(said, said.startsWith('no match') ? 'warn' : 'info');
    }),
  );
}

/** `n` and `N`: the next or previous match. */
export function stepMatch(app: AppHost, pager: Pager, direction: 1 | -1, redraw: () => void): void {
  const said = pager.step(direction);
  redraw();
  app.say(said, said.startsWith('match') ? 'info' : 'warn');
}
