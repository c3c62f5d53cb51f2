/**
 * Whether a path named where a file is expected is something no read should start on: a device
 * (/dev/zero and /dev/urandom never end — `readFile` takes every byte of memory before it
 * fails —, a disk, a terminal) or a socket. Each reader of a file that the user or a foreign
 * document names (a body include, a profiles file, an imported collection) asks here first.
 */
import { statSync, type Stats } from 'node:fs';

function kindNotAFile(stat: Stats): string | undefined {
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return undefined;
}

/** `a device` or `a socket` when `path` is one (links followed); undefined otherwise, a missing file included (its reader says so). */
export function notAFile(path: string): string | undefined {
  try {
    return kindNotAFile(statSync(path));
  } catch {
    return undefined;
  }
}
