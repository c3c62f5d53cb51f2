import type { RequestSpec } from '../../core/model.js';
import type { RequestOutcome } from '../../report/reporter.js';
import type { Exchange, RanFirst } from '../exchange.js';
import { outcomeMessage } from '../panes/outcome-message.js';
import type { Level } from '../panes/status-bar.js';
import { sentRequest } from '../preview.js';
import { requestId, type RequestStates } from '../request-states.js';
import { ResponseCapture } from '../response-capture.js';
import { sendReporter } from '../send-reporter.js';
import { modalPrompter } from './prompt.js';
import type { AppHost } from './host.js';

/** What a send needs of the app besides the common host. */
export interface SendHost extends AppHost {
  readonly states: RequestStates;
  /** Something arrived: redraw soon (throttled). */
  changed(): void;
  /** A send started or ended: redraw now. */
  sendsChanged(): void;
  /** Quitting or the screen is gone: say nothing more. */
  readonly gone: boolean;
}

function ranFirst(spec: RequestSpec, outcome: RequestOutcome, capture: ResponseCapture): RanFirst {
  if (outcome.error) return { name: spec.name, result: outcome.error.message, failed: true };
  const meta = capture.meta;
  return { name: spec.name, result: meta ? `${meta.status} ${meta.statusText}`.trim() : 'done', failed: outcome.exitCode !== 0 };
}

/**
 * Sends one request (others may be running): it becomes the request's running state, the
 * requests that run first for it keep their own responses and are listed on it, and its
 * outcome becomes the request's state (a cancel before any response keeps the previous one).
 */
export async function sendRequest(host: SendHost, spec: RequestSpec, file: string): Promise<void> {
  const { workspace, states } = host;
  const controller = new AbortController();
  const capture = new ResponseCapture(() => host.changed());
  const exchange: Exchange = { spec, file, capture, controller, startedAt: performance.now(), context: workspace.sendContext(), ranFirst: [] };
  const dependencies = new Map<string, Exchange>();
  // The session of this file's project (a repository of its own is its own), as the send will use it.
  const session = await workspace.sessionOf(file);
  const { reporter, output } = sendReporter(spec, capture, {
    start: (dep) => {
      const depCapture = new ResponseCapture(() => host.changed());
      const depExchange: Exchange = { spec: dep, file: dep.source.file, capture: depCapture, controller, startedAt: performance.now(), context: exchange.context, ranFirst: [] };
      dependencies.set(requestId(dep), depExchange);
      states.begin(depExchange);
      return depCapture;
    },
    end: (dep, outcome, depCapture) => {
      const depExchange = dependencies.get(requestId(dep));
      dependencies.delete(requestId(dep));
      exchange.ranFirst.push(ranFirst(dep, outcome, depCapture));
      if (!depExchange) return;
      depExchange.outcome = outcome;
      if (outcome.sent && outcome.response) depExchange.sent = sentRequest(outcome.sent, workspace.secrets);
      states.finish(depExchange);
    },
  }, workspace.outgoingServices(session));
  states.begin(exchange);
  host.sendsChanged();
  const tokenBefore = session.get('token');
  const outcome = await workspace.send(spec, file, { capture, prompter: modalPrompter(host, controller.signal), signal: controller.signal, reporter, output });
  exchange.outcome = outcome;
  if (outcome.sent && outcome.response) exchange.sent = sentRequest(outcome.sent, workspace.secrets);
  states.finish(exchange);
  if (host.gone) return;
  const said: { text: string; level: Level } | undefined = outcomeMessage(exchange, tokenBefore, (await workspace.sessionOf(file)).get('token'));
  if (said) host.say(said.text, said.level);
  host.sendsChanged();
}
