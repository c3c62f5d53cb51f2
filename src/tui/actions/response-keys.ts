import type { Exchange } from '../exchange.js';
import type { Action } from '../keymap.js';
import type { ResponseView } from '../panes/response-view.js';
import type { RequestState } from '../request-states.js';
import { copyAsCurl, copyBody } from './copy.js';
import { openQueryBox } from './query-box.js';
import { openHistory, type HistoryHost } from './history.js';
import { saveBody } from './save-body.js';
import { searchResponse, stepMatch } from './search-response.js';
import { showTiming } from './timing.js';

/** What the response's keys need of the app. */
export interface ResponseHost extends HistoryHost {
  /** The selected request's own state (the pane shows its response, or a send restored from the history). */
  selectedState(): RequestState;
  readonly response: ResponseView;
  /** Draws the response pane (the caller renders). */
  drawResponse(): void;
}

/** The response the pane shows. */
function shown(app: ResponseHost): Exchange | undefined {
  return app.response.exchangeOf(app.selectedState());
}

function redraw(app: ResponseHost): void {
  app.drawResponse();
  app.render();
}

/** The actions on the response shown, wherever the focus is (the app's command table includes them). */
export const RESPONSE_COMMANDS: Partial<Record<Action, (app: ResponseHost) => void>> = {
  'copy-body': (app) => copyBody(app, shown(app)?.capture),
  'copy-curl': (app) => app.background(copyAsCurl(app, shown(app)?.capture)),
  'save-body': (app) => saveBody(app, shown(app)?.capture, shown(app)?.spec.name ?? 'response'),
  'toggle-hex': (app) => (app.response.toggleHex(shown(app)) ? redraw(app) : app.say('no body yet: send a request first', 'warn')),
  timing: (app) => showTiming(app, shown(app)?.capture),
  'search-next': (app) => stepMatch(app, app.response.pager, 1, () => redraw(app)),
  'search-previous': (app) => stepMatch(app, app.response.pager, -1, () => redraw(app)),
  query: (app) => openQueryBox(app),
  history: (app) => app.background(openHistory(app)),
  pin: (app) => app.response.pinned.pin(app, shown(app)),
  diff: (app) => app.background(app.response.pinned.diff(app, shown(app))),
};

/** `/` with the response focused: search it (in the tree, `/` filters the requests). */
export function searchResponseKey(app: ResponseHost): void {
  searchResponse(app, app.response.pager, () => redraw(app));
}
