import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { MASK, isSecretName, redact } from '../../core/mask.js';
import { saveProfileEdit } from '../profiles-writer.js';
import { checkVariableName, cycledOption, editorRows, type EditorRow, type OtherValue } from '../variables/editor-rows.js';
import { applyVariableEdit, rawVariables, type VariableEdit } from '../variables/variable-edit.js';
import { LinePromptOverlay } from '../views/line-prompt.js';
import { PickerOverlay } from '../views/overlay.js';
import { VariablesOverlay } from '../views/variables-overlay.js';
import type { AppHost } from './host.js';

/** What the editor uses of the app: the host, and the folder whose environment applies. */
export interface VariablesHost extends AppHost {
  selectedFolder(): string;
}

async function fileText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '[]';
    throw error;
  }
}

/** The environment's values for the selected folder, masked (the environment picked with `e`, else `$shared`). */
async function environmentValues(app: VariablesHost): Promise<OtherValue[]> {
  const { loadEnvironment } = await import('../../core/environments.js');
  const environment = await loadEnvironment(app.selectedFolder(), app.workspace.options.environment).catch(() => undefined);
  if (!environment) return [];
  const secrets = new Set(environment.secrets);
  const note = environment.name ? `environment ${environment.name}` : 'environment $shared';
  return Object.entries(environment.variables).map(([name, value]) => ({ name, source: 'environment', value: isSecretName(name) || secrets.has(value) ? MASK : redact(value, app.workspace.secrets), note }));
}

/** The editor's rows as the profiles file says now. */
async function currentRows(app: VariablesHost): Promise<EditorRow[]> {
  const { workspace } = app;
  const path = workspace.profilesFileForSaving();
  const raw = rawVariables(await fileText(path), path, workspace.profile.name);
  const others: OtherValue[] = workspace
    .variables()
    .filter((row) => row.source !== 'profile')
    .map((row) => ({ name: row.name, source: row.source as OtherValue['source'], value: row.value, ...(row.note ? { note: row.note } : {}) }));
  return editorRows(raw, [...others, ...(await environmentValues(app))], (value) => redact(value, workspace.secrets));
}

/**
 * `v`: the variable editor. Each change is written to the profiles file at once (atomically,
 * only that profile's `variables` touched: profiles-writer.ts), the profiles are read again and
 * the request pane redrawn, so the request shows the new value.
 */
export async function openVariables(app: VariablesHost): Promise<void> {
  const { workspace } = app;
  const rows = await currentRows(app);
  const title = `Variables · profile ${workspace.profile.name}${workspace.options.environment ? ` · environment ${workspace.options.environment}` : ''}`;
  let overlay: VariablesOverlay;

  const save = (edit: VariableEdit, done: string): void => {
    app.background(
      (async () => {
        const path = workspace.profilesFileForSaving();
        await saveProfileEdit(path, workspace.profile.name, 'variables', (text) => applyVariableEdit(text, path, workspace.profile.name, edit));
        await workspace.reloadProfiles(workspace.profile.name);
        if (workspace.profileProblem) return app.say(workspace.profileProblem.message, 'error');
        app.refresh();
        if (app.isOpen(overlay)) overlay.update(await currentRows(app), edit.name);
        app.say(`${done} · saved to ${relative(workspace.catalog.root, path) || path}`, 'ok');
      })(),
    );
  };

  const ask = (question: string, initial: string, secret: boolean, answer: (value: string) => void): void =>
    app.open(new LinePromptOverlay(app, 'Variable', { question, initial, secret, footer: secret ? 'hidden input · Enter saves (empty keeps the value) · Esc cancels' : 'Enter saves · Esc cancels' }, (value) => {
      if (value !== undefined && !(secret && value === '')) answer(value);
    }));

  overlay = new VariablesOverlay(app, title, rows, {
    edit: (row) => {
      // A value shown masked (a secret, or holding one) is typed anew: the mask is never written back.
      const hidden = row.secret || row.value.includes(MASK);
      ask(`${row.name}${row.options ? ` (option ${(row.active ?? 0) + 1})` : ''} =`, hidden ? '' : row.value, hidden, (value) => save({ kind: 'set', name: row.name, value }, `${row.name} set`));
    },
    add: () =>
      ask('name of the new variable', '', false, (name) => {
        const problem = checkVariableName(name.trim());
        if (problem) return app.say(problem, 'error');
        ask(`${name.trim()} =`, '', isSecretName(name.trim()), (value) => save({ kind: 'set', name: name.trim(), value }, `${name.trim()} added`));
      }),
    remove: (row) => save({ kind: 'remove', name: row.name }, `${row.name} removed`),
    cycle: (row, step) => {
      const index = cycledOption(row, step);
      if (index === undefined) return app.say(`${row.name} has one value: + adds an option`, 'warn');
      save({ kind: 'activate', name: row.name, index }, `${row.name}: option ${index + 1} of ${row.options?.length}`);
    },
    choose: (row) => {
      if (!row.options) return app.say(`${row.name} has one value: + adds an option`, 'warn');
      const items = row.options.map((option, i) => `${i + 1}. ${option.value}${option.aliases.length ? `  (${option.aliases.join(', ')})` : ''}`);
      app.open(new PickerOverlay(app, `${row.name}: active option`, items, row.active ?? 0, (index) => save({ kind: 'activate', name: row.name, index }, `${row.name}: option ${index + 1} of ${items.length}`)));
    },
    addOption: (row) => ask(`new option of ${row.name} (it becomes the active one)`, '', row.secret, (value) => save({ kind: 'add-option', name: row.name, value }, `${row.name}: option added`)),
    alias: (row) => {
      if (!row.options || row.active === undefined) return app.say(`${row.name} has one value: + adds an option, then n names it`, 'warn');
      const index = row.active;
      const current = row.options[index]?.aliases[0];
      ask(`alias of option ${index + 1} of ${row.name}${current ? ' (empty removes it)' : ''}`, current ?? '', false, (alias) => {
        const name = alias.trim();
        if (name !== '' && !/^[\w.-]+$/.test(name)) return app.say(`"${name}" is not an alias: letters, digits, _ . -`, 'error');
        save({ kind: 'alias', name: row.name, alias: name, index, ...(current ? { replaces: current } : {}) }, name === '' ? `${row.name}: alias ${current} removed` : `${row.name}: option ${index + 1} is "${name}"`);
      });
    },
  });
  app.open(overlay);
}

