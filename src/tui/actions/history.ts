import type { Exchange } from '../exchange.js';
import { historyRow, latestSends, storedSend } from '../panes/history-pane.js';
import { restoredExchange } from '../restored-exchange.js';
import { PickerOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

/** What the history needs of the app: the response pane, to show a stored send in. */
export interface HistoryHost extends AppHost {
  readonly response: { restore(exchange: Exchange): void };
}

/**
 * `H`: the sends of this project and profile, newest first (time, method, status, duration,
 * name), read from the history store; Enter shows the chosen one in the response pane.
 */
export async function openHistory(app: HistoryHost): Promise<void> {
  const { workspace } = app;
  let setAside: string | undefined; // a history kept for an earlier folder at the project's path: it says so instead
  const sends = await latestSends(workspace, undefined, (message) => (setAside = message));
  if (sends.length === 0) return app.say(setAside ?? `no history yet for profile "${workspace.profile.name}" in ${workspace.session.project}`, 'warn');
  const title = `History · ${workspace.profile.name} · newest first`;
  app.open(
    new PickerOverlay(app, title, sends.map(historyRow), 0, (index) => {
      const chosen = sends[index];
      if (!chosen) return;
      app.background(
        storedSend(workspace, chosen.id).then((entry) => {
          if (!entry) return app.say('that send is no longer in the history (rotated away)', 'warn');
          app.response.restore(restoredExchange(entry, workspace.catalog)); // until the selection moves
          app.refresh();
          app.say(`restored ${entry.method} ${entry.name} sent ${entry.time}`, 'ok');
        }),
      );
    }, 'Enter shows it · Esc closes'),
  );
}
