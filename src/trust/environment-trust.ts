/**
 * Whether httpyac's JavaScript config may run (docs/trust.md): in a trusted project, yes; else a
 * run that picks an environment (`--env`), which the config may define, is refused — exit 2 —
 * and any other run goes on without it, warned once.
 */
import { shownPath } from '../core/resolve-path.js';
import { isTrusted, requireTrust, TRUST_REMEDY, type TrustScope } from './require-trust.js';

const WHAT = "httpyac's JavaScript configuration";

export function mayRunConfig(config: string, required: boolean, scope: TrustScope, warn: (message: string) => void): boolean {
  if (required) {
    requireTrust(scope, shownPath(config), WHAT);
    return true;
  }
  if (isTrusted(scope)) return true;
  warn(`${shownPath(config)}: ${WHAT} is not run (it runs a program); ${TRUST_REMEDY}`);
  return false;
}
