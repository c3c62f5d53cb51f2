/**
 * Whether httpyac's JavaScript config may run (docs/trust.md): in a trusted project, yes; else a
 * run that picks an environment (`--env`), which the config may define, is refused — exit 2 —
 * and so is one whose config names what every run takes from it (`defaultHeaders`, the `$shared`
 * and `$default` environments); any other run goes on without it, warned once.
 */
import { readEnvironmentFile } from '../core/read-config-file.js';
import { shownPath } from '../core/resolve-path.js';
import { earlierFolderWords, requireTrust, trustStateOf, TRUST_REMEDY, type TrustScope } from './require-trust.js';

const WHAT = "httpyac's JavaScript configuration";

/**
 * What httpyac takes from its config on every run, `--env` or not: headers for every request and
 * the values of `$shared` and `$default`. Read from the text, never run: a config that names none
 * (a logging level, response hooks) adds nothing to what is sent.
 */
const EVERY_RUN = /\bdefaultHeaders\b|\$shared\b|\$default\b/;

export async function mayRunConfig(config: string, required: boolean, scope: TrustScope, warn: (message: string) => void): Promise<boolean> {
  const state = await trustStateOf(scope);
  if (state === 'trusted') return true;
  if (required || EVERY_RUN.test(readEnvironmentFile(config))) {
    await requireTrust(scope, shownPath(config), WHAT);
    return true;
  }
  warn(`${shownPath(config)}: ${WHAT} is not run (it runs a program); ${TRUST_REMEDY}${state === 'earlier' ? ` (${earlierFolderWords(scope.project)})` : ''}`);
  return false;
}
