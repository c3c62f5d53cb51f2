import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/** `~/x` and relative paths become absolute, relative to the file that named them. */
export function resolvePath(path: string, baseDir: string): string {
  const expanded = path === '~' ? homedir() : path.startsWith('~/') ? resolve(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}
