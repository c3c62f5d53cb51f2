/**
 * The one check before reqflow runs a program a request file names (docs/trust.md): `--trust`
 * for this invocation, else the project in the trust store. Loaded only when such a construct
 * is met, so a plain run never reads the store.
 */
import { UsageError } from '../core/errors/index.js';
import { isTrustedProject } from './store.js';

export interface TrustScope {
  /** `--trust` was given. */
  flag?: boolean;
  /** The project root (as sessions use it: `session.project`). */
  project: string;
  env?: NodeJS.ProcessEnv;
}

/** The remedy every refusal ends with. */
export const TRUST_REMEDY = '`reqflow trust` this project or pass --trust';

export function isTrusted(scope: TrustScope): boolean {
  return scope.flag === true || isTrustedProject(scope.project, scope.env);
}

/** Exit 2 unless trusted: `where` is the file and line, `what` the construct (`# @auth command`). */
export function requireTrust(scope: TrustScope, where: string, what: string): void {
  if (!isTrusted(scope)) throw new UsageError(`${where}: ${what} runs a program; ${TRUST_REMEDY}`, { hint: `the project is ${scope.project}: reqflow trust --help` });
}
