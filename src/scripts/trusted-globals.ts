/**
 * What a trusted project's httpyac script gets besides the API (docs/trust.md), as httpyac gives
 * it (`runScript` in its `moduleUtils.ts`): `require` of a module at the script's file — Node's
 * built-ins, and packages from the project's `node_modules` found from that folder up —
 * `__filename`, `__dirname` and `Buffer`. Built in the script worker; host objects, so the script
 * has the user's rights (its time limit still holds).
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** The script's file (the request file for an inline script), absolute. */
export interface TrustedScript {
  file: string;
}

export function trustedGlobals({ file }: TrustedScript): Record<string, unknown> {
  return { require: createRequire(file), __filename: file, __dirname: dirname(file), Buffer };
}
