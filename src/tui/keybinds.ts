import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from '../core/config-dir.js';
import { UsageError } from '../core/errors/index.js';
import { closestName } from '../core/suggest.js';
import { ACTION_NAMES, DEFAULT_BINDINGS, keyLabel, twinKey, type Action, type Bindings } from './keymap.js';

const KEYBINDS_FILE = 'keybinds.json';

/** A neo-blessed key name: one printable character, or a named key, with C-/M-/S- modifiers. */
const KEY_NAME = /^(?:[CMS]-)*(?:[!-~]|f\d{1,2}|up|down|left|right|enter|escape|tab|space|backspace|delete|insert|home|end|pageup|pagedown)$/;

/** Keys the UI keeps for itself. */
/** Keys the UI always answers itself, as a terminal would: what each does. */
const RESERVED: ReadonlyMap<string, string> = new Map([
  ['C-c', 'always quits'],
  ['C-z', 'always suspends to the shell'],
]);

/**
 * The key bindings: the defaults (keymap.ts), with the actions `keybinds.json` names bound to
 * its keys instead, e.g. `{ "pick-environment": "E", "quit": ["q", "C-q"] }`. Checked once, at
 * start: the first problem is a one-line usage error naming the file, the action or the key.
 */
export function parseKeybinds(text: string, file: string): Bindings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${file}: expected an object of action names to keys, e.g. {"pick-environment": "E"}`);
  const bindings: Record<string, readonly string[]> = { ...DEFAULT_BINDINGS };
  for (const [action, value] of Object.entries(raw)) {
    if (!(ACTION_NAMES as string[]).includes(action)) {
      const guess = closestName(action, ACTION_NAMES);
      throw new UsageError(`${file}: unknown action "${action}"${guess ? ` (did you mean "${guess}"?)` : ''}`, { hint: `actions: ${ACTION_NAMES.join(', ')}` });
    }
    const keys = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(keys) || keys.length === 0 || keys.some((key) => typeof key !== 'string')) throw new UsageError(`${file}: "${action}" must be a key or a list of keys, e.g. "x" or ["x", "C-x"]`);
    for (const key of keys as string[]) {
      if (!KEY_NAME.test(key)) throw new UsageError(`${file}: "${action}": "${key}" is not a key name`, { hint: 'a character (x, X, :), a named key (enter, escape, tab, f5, pagedown) or one with C-, M-, S- (C-p)' });
      if (RESERVED.has(key)) throw new UsageError(`${file}: "${action}": ${keyLabel(key)} ${RESERVED.get(key)} and cannot be bound`);
    }
    bindings[action] = keys as string[];
  }
  const owner = new Map<string, string>();
  for (const action of ACTION_NAMES) {
    for (const key of bindings[action] ?? []) {
      // `G` and `S-g` are one key.
      const other = owner.get(key) ?? owner.get(twinKey(key) ?? key);
      if (other !== undefined && other !== action) throw new UsageError(`${file}: key "${key}" is bound to both "${other}" and "${action}"`, { hint: 'give one of them another key in the file' });
      owner.set(key, action);
    }
  }
  return bindings as Record<Action, readonly string[]>;
}

/** The bindings from `keybinds.json` in the config folder; the defaults when there is none. */
export async function loadKeybinds(env: NodeJS.ProcessEnv): Promise<Bindings> {
  const file = join(configDir(env), KEYBINDS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_BINDINGS;
    throw new UsageError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parseKeybinds(text, file);
}
