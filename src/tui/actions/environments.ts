import { PickerOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

/** The picker's first row: no environment (only `$shared` values apply). */
const NONE = '(none)';

/**
 * `e`: the environments found for request files in `dir` — the same search as `--env`
 * (http-client.env.json and its private file, VS Code's rest-client settings, httpyac's `.env`
 * files, up to the project root) — and switches to the one picked.
 */
export async function pickEnvironment(app: AppHost, dir: string): Promise<void> {
  const { environmentNames } = await import('../../core/environment-files.js');
  const names = await environmentNames(dir);
  if (names.length === 0) return app.say('no environments here: add an http-client.env.json, VS Code rest-client settings or .env files (docs/environments.md)', 'warn');
  const current = app.workspace.options.environment;
  const choices = [undefined, ...names];
  const items = choices.map((name) => `${name ?? NONE}${name === current ? '  (current)' : ''}`);
  app.open(
    new PickerOverlay(app, 'Environment', items, choices.indexOf(current), (index) => {
      const name = choices[index];
      app.workspace.useEnvironment(name);
      app.say(name === undefined ? 'no environment' : `environment ${name}`, 'ok');
      app.refresh();
    }),
  );
}
