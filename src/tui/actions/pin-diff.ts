import { shownTime } from '../../history/format.js';
import type { Exchange } from '../exchange.js';
import { bodyDiffLines, type DiffSide } from '../views/body-diff.js';
import { TextOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

/** The response `w` pinned, kept while the UI runs. */
export class PinnedResponse {
  private side?: DiffSide;

  /** `w`: keeps the body of the response shown. */
  pin(app: AppHost, exchange: Exchange | undefined): void {
    const side = sideOf(exchange);
    if (!side) return app.say('no text body to pin: send a request first', 'warn');
    this.side = side;
    app.say(`pinned ${side.label}; W compares the response shown with it`, 'ok');
  }

  /** `W`: the response shown against the pinned one. */
  async diff(app: AppHost, exchange: Exchange | undefined): Promise<void> {
    if (!this.side) return app.say('nothing pinned: w pins the response shown', 'warn');
    const side = sideOf(exchange);
    if (!side) return app.say('no text body to compare: send a request first', 'warn');
    const lines = await bodyDiffLines(this.side, side);
    app.open(new TextOverlay(app, 'Pinned → shown', lines, Math.max(40, app.screen.width - 4)));
  }
}

/** The body of an exchange as text to compare, with a label saying which response it is. */
function sideOf(exchange: Exchange | undefined): DiffSide | undefined {
  const capture = exchange?.capture;
  if (!exchange || !capture?.bytes || capture.raw === 'binary') return undefined;
  const status = capture.meta ? ` ${capture.meta.status}` : '';
  const when = exchange.restored ? ` sent ${shownTime(exchange.restored)}` : '';
  return { label: `${exchange.spec.name}${status}${when}`, text: capture.bytes.toString('utf8') };
}
