/**
 * The rows of the variable editor (`v`), without drawing: the profile's variables as its file
 * writes them (editable), then those that come from elsewhere (`-e`, the session, the
 * environment: shown, not edited here). Secret values are masked before they reach a row.
 */
import { MASK, isSecretName } from '../../core/mask.js';
import type { RawVariable } from './variable-edit.js';

export type RowSource = '-e' | 'session' | 'environment' | 'profile';

export interface EditorRow {
  name: string;
  source: RowSource;
  /** What a request gets from this row, masked when secret (a multi-value variable: its active option). */
  value: string;
  secret: boolean;
  /** Only the profile's rows are edited here. */
  editable: boolean;
  /** A multi-value variable's options (masked when secret), its active one and each option's aliases. */
  options?: Array<{ value: string; aliases: string[] }>;
  active?: number;
  description?: string;
  /** Why the value shown is not what a request gets, or how it is used. */
  note?: string;
}

/** A value from `-e`, the session or the environment, already masked by the workspace. */
export interface OtherValue {
  name: string;
  source: Exclude<RowSource, 'profile'>;
  value: string;
  note?: string;
}

/** Which source wins for a name: `-e`, then the session, then the environment, then the profile. */
const PRECEDENCE: RowSource[] = ['-e', 'session', 'environment', 'profile'];

export function editorRows(profile: Array<[string, RawVariable]>, others: OtherValue[], mask: (value: string) => string): EditorRow[] {
  const winner = new Map<string, RowSource>();
  for (const other of [...others].sort((a, b) => PRECEDENCE.indexOf(a.source) - PRECEDENCE.indexOf(b.source))) if (!winner.has(other.name)) winner.set(other.name, other.source);
  const rows: EditorRow[] = profile.map(([name, raw]) => {
    const secret = isSecretName(name) || (raw.form === 'prompt' && raw.secret);
    const shown = (value: string): string => (secret ? MASK : mask(value));
    const shadow = winner.get(name);
    const note = shadow ? `${shadow} wins` : raw.form === 'prompt' && raw.interactive ? 'interactive, asked when sent' : undefined;
    const base = { name, source: 'profile' as const, secret, editable: true, ...(note ? { note } : {}) };
    if (raw.form !== 'multi') return { ...base, value: shown(raw.value) };
    const options = raw.options.map((value, index) => ({ value: shown(value), aliases: Object.keys(raw.aliases).filter((alias) => raw.aliases[alias] === index) }));
    return { ...base, value: options[raw.active]?.value ?? '', options, active: raw.active, ...(raw.description ? { description: raw.description } : {}) };
  });
  const listed = new Set<string>();
  for (const other of others) {
    const key = `${other.source}\u0000${other.name}`;
    if (listed.has(key)) continue;
    listed.add(key);
    const wins = winner.get(other.name) === other.source;
    const note = [other.note, wins ? undefined : `${winner.get(other.name)} wins`].filter(Boolean).join(', ');
    rows.push({ name: other.name, source: other.source, value: other.value, secret: other.value === MASK, editable: false, ...(note ? { note } : {}) });
  }
  return rows;
}

/** The option after (`step` 1) or before (-1) the active one, wrapping around. */
export function cycledOption(row: EditorRow, step: 1 | -1): number | undefined {
  if (!row.options || row.active === undefined) return undefined;
  return (row.active + step + row.options.length) % row.options.length;
}

/** A variable name the profile can hold and `{{name}}` can use: no braces, spaces or quotes. */
export function checkVariableName(name: string): string | undefined {
  if (name === '') return 'a variable needs a name';
  if (!/^[A-Za-z_][\w.-]*$/.test(name)) return `"${name}" is not a variable name: letters, digits, _ . - (first a letter or _)`;
  return undefined;
}
