/**
 * Which session variables token extraction set by itself (`Session.set(name, value, 'extracted')`),
 * kept in the session's data so that it is saved with the values: the resolver ranks those below
 * what the user defined (environment, file, profile).
 */
import type { Session } from './model.js';

/** The session data entry listing the variables that token extraction set (see `Session.set`). */
const EXTRACTED = 'reqflow.extracted';

/** The names listed: a list as reqflow writes it, or one value alone (a session file edited by hand: `5`, `"token"`), never read as a list. */
const extracted = (session: Session): unknown[] => [session.getData(EXTRACTED) ?? []].flat();

/** Records whether a session variable was set by token extraction, in the session's data (saved with it). */
export function markOrigin(session: Session, name: string, origin: 'extracted' | undefined): void {
  const names = extracted(session);
  const marked = names.includes(name);
  if (marked === (origin === 'extracted')) return;
  session.setData(EXTRACTED, marked ? names.filter((n) => n !== name) : [...names, name]);
}

/** Was this session variable set by token extraction, unasked? It then ranks below the environment, the file and the profile. */
export function isExtracted(session: Session, name: string): boolean {
  return extracted(session).includes(name);
}

