import type { Exchange } from '../exchange.js';
import { fit, layoutLength, shown } from '../views/format.js';
import type { Workspace } from '../workspace.js';

export type Level = 'info' | 'ok' | 'warn' | 'error';

const PAINT: Record<Level, (text: string) => string> = {
  info: (t) => t,
  ok: (t) => `\u001b[1m${t}\u001b[22m`,
  warn: (t) => `\u001b[33;1m${t}\u001b[39;22m`,
  error: (t) => `\u001b[41;97m${t}\u001b[49;39m`,
};

/** ` profile · env NAME │ token: … │ message          ? help ` in `width` columns; `editing` replaces the message (the filter line). */
export function statusBarText(options: { width: number; profile: string; environment?: string | undefined; token: string; message: { text: string; level: Level }; editing?: (room: number) => string }): string {
  const { width } = options;
  // A profile or environment name is the project's: never wider than a third of the bar.
  const left = ` ${fit(shown(`${options.profile}${options.environment !== undefined ? ` · env ${options.environment}` : ''}`), Math.max(8, Math.floor(width / 3)))} │ token: ${options.token} │ `;
  const right = ' ? help ';
  const room = width - layoutLength(left) - right.length;
  const middle = options.editing ? options.editing(Math.max(5, room - 2)) : PAINT[options.message.level](fit(shown(options.message.text), Math.max(0, room)));
  const gap = Math.max(0, width - layoutLength(left) - layoutLength(middle) - right.length);
  return `${left}${middle}${' '.repeat(gap)}${right}`;
}

/** The first status line: what could not be read, else how many request files there are. */
export function problemsMessage(workspace: Pick<Workspace, 'catalog' | 'profileProblem' | 'sessionNotice'>): { text: string; level: Level } {
  const { catalog, profileProblem, sessionNotice } = workspace;
  const broken = catalog.files.filter((f) => f.error);
  if (profileProblem) return { text: `profiles: ${profileProblem.message}`, level: 'error' };
  if (sessionNotice) return { text: sessionNotice, level: 'warn' };
  if (broken.length === 1) return { text: `${broken[0]?.label} could not be read (select it for details)`, level: 'error' };
  if (broken.length > 1) return { text: `${broken.length} files could not be read: ${broken.map((f) => f.label).join(', ')}`, level: 'error' };
  if (catalog.truncated) return { text: 'showing the first 400 request files only', level: 'warn' };
  return { text: `${catalog.files.length} request file${catalog.files.length === 1 ? '' : 's'} · Enter sends · ? help`, level: 'info' };
}

/** A message for the one-line status bar: paths under the folder shown relative to it, line breaks folded. */
export function oneLine(text: string, root: string): string {
  const prefix = `${root}/`;
  return (prefix.length > 1 ? text.split(prefix).join('') : text).replace(/(?<!\s)\s*\n\s*/g, ' '); // a run of spaces tried from its start only, not from each of its characters
}

/** What runs, for the status bar: one request by name, else how many. */
export function runningMessage(running: readonly Exchange[]): string | undefined {
  const [first] = running;
  if (!first) return undefined;
  if (running.length > 1) return `${running.length} requests running`;
  return first.capture.streaming ? `streaming ${first.spec.name}… Esc stops` : `sending ${first.spec.name}…`;
}
