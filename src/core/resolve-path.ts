import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';

/** `~/x` and relative paths become absolute, relative to the file that named them. */
export function resolvePath(path: string, baseDir: string): string {
  const expanded = path === '~' ? homedir() : path.startsWith('~/') ? resolve(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

/** How a file is named in messages and reports: relative to `cwd` when inside it, else absolute. */
export function shownPath(file: string, cwd = process.cwd()): string {
  const shown = relative(cwd, file);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? file : shown;
}
