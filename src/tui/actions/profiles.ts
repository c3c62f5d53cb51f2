import { PickerOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

/** `p`: pick the profile from the current .profiles.json. */
export async function pickProfile(app: AppHost): Promise<void> {
  const { workspace } = app;
  await workspace.reloadProfiles(workspace.profile.name);
  const { profiles } = workspace.document;
  if (workspace.profileProblem) return app.say(`profiles: ${workspace.profileProblem.message}`, 'error');
  if (profiles.length === 0) return app.say('no .profiles.json found: create one beside your request files (O creates one with OAuth settings)', 'warn');
  const names = profiles.map((p) => p.name);
  const current = names.indexOf(workspace.profile.name);
  const items = names.map((name, i) => (i === current ? `${name}  (current)` : name));
  app.open(
    new PickerOverlay(app, 'Profile', items, current, (index) => {
      const name = names[index];
      if (name !== undefined) app.background(switchProfile(app, name));
    }),
  );
}

async function switchProfile(app: AppHost, name: string): Promise<void> {
  await app.workspace.switchProfile(name);
  app.say(`profile ${name}`, 'ok');
  app.refresh();
}
