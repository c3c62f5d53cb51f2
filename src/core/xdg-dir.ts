import { isAbsolute } from 'node:path';

/**
 * An XDG base folder (`$XDG_STATE_HOME`, `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME`), else `fallback`. A
 * relative one is invalid and ignored, as the XDG spec says: it would put sessions, the trust
 * store or plugins in whatever folder the run is in — a project's.
 */
export function xdgDir(value: string | undefined, fallback: string): string {
  return value && isAbsolute(value) ? value : fallback;
}
