/**
 * The one check before reqflow runs a program a request file names (docs/trust.md): `--trust`
 * for this invocation, else the project in the trust store — the folder trusted, not another
 * created at its path since — and the file that asks for it inside that project (a file
 * elsewhere, run from a trusted project's folder, is in that project's session but not in its
 * trust). Loaded only when such a construct is met, so a plain run never reads the store.
 */
import { UsageError } from '../core/errors/index.js';
import { isInside, real } from '../core/project.js';
import { trustOf, type TrustState } from './store.js';

export interface TrustScope {
  /** `--trust` was given. */
  flag?: boolean;
  /** The project root (as sessions use it: `session.project`). */
  project: string;
  /** The file whose code would run (the request file, a script file, httpyac's config): it must be inside the project. */
  file: string;
  env?: NodeJS.ProcessEnv;
}

/** The remedy every refusal ends with. */
export const TRUST_REMEDY = '`reqflow trust` this project or pass --trust';

/** `file` is `project` or below it (real paths: a link out of the project is outside it). */
function inside(project: string, file: string): boolean {
  return isInside(project, real(file));
}

/** Whether the scope may run programs: `--trust`, else a file inside a project trusted as the folder it is now. */
export async function trustStateOf(scope: TrustScope): Promise<TrustState> {
  if (scope.flag === true) return 'trusted';
  return inside(scope.project, scope.file) ? trustOf(scope.project, scope.env) : 'untrusted';
}

/** Why a project whose path is in the store is not trusted: said with each refusal, and by a script that is refused `require`. */
export function earlierFolderWords(project: string): string {
  return `${project} was trusted as an earlier folder at that path (deleted and created again since): its trust does not carry over to the folder there now; reqflow trust it again if you trust this one`;
}

/** Exit 2 unless trusted: `where` is the file and line, `what` the construct (`# @auth command`). */
export async function requireTrust(scope: TrustScope, where: string, what: string): Promise<void> {
  const state = await trustStateOf(scope);
  if (state === 'trusted') return;
  const hint = state === 'earlier' ? earlierFolderWords(scope.project) : inside(scope.project, scope.file) ? `the project is ${scope.project}: reqflow trust --help` : `${real(scope.file)} is outside the project ${scope.project} (whose profiles it is run with): only a file inside a trusted project runs programs`;
  throw new UsageError(`${where}: ${what} runs a program; ${TRUST_REMEDY}`, { hint });
}
