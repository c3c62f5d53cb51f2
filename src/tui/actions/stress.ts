import { LinePromptOverlay } from '../views/line-prompt.js';
import type { StressHost } from './host.js';

/**
 * `L`: asks for the workers and a duration or a number of requests, then stress-tests the
 * selected request in the background with `reqflow stress`'s engine (imported only now).
 */
export function openStress(app: StressHost): void {
  const spec = app.selectedSpec();
  const file = app.selectedFile();
  if (!spec || !file) return app.say('select a request to stress-test it', 'warn');
  if (app.stressCancel) return app.say('a stress run is going on: Esc stops it', 'warn');
  const question = `Stress ${spec.name}: workers, then a duration (10s, 2m) or a number of requests`;
  app.open(
    new LinePromptOverlay(app, 'Stress', { question, initial: '10 10s', footer: 'Enter starts · Esc cancels · e.g. 20 30s, or 5 1000 (requests)' }, (answer) => {
      if (answer === undefined) return;
      const controller = new AbortController();
      app.stressCancel = controller;
      const run = import('../stress/run-tui-stress.js').then(({ runTuiStress }) => runTuiStress(app, { spec, file, answer, signal: controller.signal }));
      app.background(run.finally(() => (app.stressCancel = undefined)));
    }),
  );
}
