import { parseJsonBody } from '../../report/render/body.js';
import { asReqflowError } from '../workspace.js';
import { queryEvaluator } from '../query/evaluate-query.js';
import { QueryLine } from '../views/query-line.js';
import type { ResponseView } from '../panes/response-view.js';
import type { RequestState } from '../request-states.js';
import type { AppHost } from './host.js';

/** What the query box uses of the app (the response keys' host has it). */
export interface QueryBoxHost extends AppHost {
  selectedState(): RequestState;
  readonly response: ResponseView;
  drawResponse(): void;
}

/**
 * `J` (restcli's query box): a line at the bottom whose JMESPath (or, from `$`, JSONPath)
 * expression filters the response's JSON body live in the pane. An invalid expression shows its
 * error dimmed in the line and keeps the last good result; Esc closes it and shows the whole
 * body again; Enter keeps the filtered view until Esc.
 */
export function openQueryBox(app: QueryBoxHost): void {
  const capture = app.response.exchangeOf(app.selectedState())?.capture;
  if (!capture?.meta || capture.streaming) return app.say('no response to filter: send a request first (J filters its JSON body)', 'warn');
  if (!capture.bytes) return app.say('J filters a JSON body: this response has none', 'warn');
  const parsed = parseJsonBody(capture.bytes);
  if (!parsed.ok) return app.say(`J filters JSON only: ${parsed.reason}`, 'warn');
  const evaluate = queryEvaluator(parsed.value, app.workspace.options.scriptTimeoutMs);
  const { query, pager } = app.response;
  const redraw = (): void => {
    pager.reset();
    app.drawResponse();
    app.render();
  };
  const line = new QueryLine(app, {
    changed: (expression) => {
      const isCurrent = query.begin();
      if (expression.trim() === '') {
        query.show(undefined);
        line.setProblem('');
        return redraw();
      }
      app.background(
        evaluate(expression).then(
          (lines) => {
            if (!isCurrent()) return;
            query.show({ expression: expression.trim(), lines });
            if (app.isOpen(line)) line.setProblem('');
            redraw();
          },
          (error: unknown) => {
            if (isCurrent() && app.isOpen(line)) line.setProblem(asReqflowError(error).message.split('\n')[0] ?? '');
          },
        ),
      );
    },
    closed: (keep, expression) => {
      // Enter: a result still on its way lands when it comes.
      if (keep) return expression.trim() === '' ? undefined : app.say('filtered view kept: Esc shows the whole body');
      query.clear();
      redraw();
    },
  });
  app.open(line);
}
