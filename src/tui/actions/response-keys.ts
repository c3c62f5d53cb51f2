import type { Exchange } from '../exchange.js';
import type { Action } from '../keymap.js';
import type { ResponseView } from '../panes/response-view.js';
import { copyAsCurl, copyBody } from './copy.js';
import { openHistory, type HistoryHost } from './history.js';
import { saveBody } from './save-body.js';
import { searchResponse, stepMatch } from './search-response.js';
import { showTiming } from './timing.js';

/** What the response's keys need of the app. */
export interface ResponseHost extends HistoryHost {
  readonly exchange?: Exchange | undefined;
  readonly response: ResponseView;
  /** Draws the response pane (the caller renders). */
  drawResponse(): void;
}

/** The keys that act on the response shown, wherever the focus is. */
const RESPONSE_ACTIONS = new Set<Action>(['copy-body', 'copy-curl', 'save-body', 'toggle-hex', 'timing', 'search-next', 'search-previous', 'history', 'pin', 'diff']);

/** Runs a response key's action; false when `action` is not one of them. */
export function responseAction(app: ResponseHost, action: Action): boolean {
  if (!RESPONSE_ACTIONS.has(action)) return false;
  const capture = app.exchange?.capture;
  const redraw = (): void => {
    app.drawResponse();
    app.render();
  };
  switch (action) {
    case 'copy-body':
      copyBody(app, capture);
      break;
    case 'copy-curl':
      app.background(copyAsCurl(app, capture));
      break;
    case 'save-body':
      saveBody(app, capture, app.exchange?.spec.name ?? 'response');
      break;
    case 'toggle-hex':
      if (app.response.toggleHex(app.exchange)) redraw();
      else app.say('no body yet: send a request first', 'warn');
      break;
    case 'timing':
      showTiming(app, capture);
      break;
    case 'history':
      app.background(openHistory(app));
      break;
    case 'pin':
      app.response.pinned.pin(app, app.exchange);
      break;
    case 'diff':
      app.background(app.response.pinned.diff(app, app.exchange));
      break;
    default:
      stepMatch(app, app.response.pager, action === 'search-next' ? 1 : -1, redraw);
  }
  return true;
}

/** `/` with the response focused: search it (in the tree, `/` filters the requests). */
export function searchResponseKey(app: ResponseHost): void {
  searchResponse(app, app.response.pager, () => {
    app.drawResponse();
    app.render();
  });
}
