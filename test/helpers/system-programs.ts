/**
 * The system programs some tests drive, which a fresh machine may not have. CI installs every
 * one (.ci/run), so there the tests run; elsewhere the tests that need a missing program are
 * skipped, and one line on stderr says which and why, so `npm install && npm test` passes on a
 * machine with nothing but Node.js.
 */
import { describe, expect, test } from '@jest/globals';
import { accessSync, constants } from 'node:fs';
import { delimiter, join, relative } from 'node:path';

/** Each program, and the Debian package that has it. */
const PACKAGES = {
  openssl: 'openssl',
  jq: 'jq',
  script: 'bsdutils',
  tmux: 'tmux',
  git: 'git',
  curl: 'curl',
} as const;

export type Program = keyof typeof PACKAGES;
export const PROGRAMS = Object.keys(PACKAGES) as Program[];

/** Whether `program` is an executable file in one of PATH's folders (where a spawn would find it). */
function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || '.', program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The programs of `programs` that are not on PATH. If there are any, one line on stderr names
 * the test file and `skipped` (what the caller skips for them): a skip is never silent.
 */
export function missingPrograms(programs: readonly Program[], skipped: string): Program[] {
  const missing = programs.filter((program) => !onPath(program));
  if (missing.length > 0) {
    const file = relative(process.cwd(), expect.getState().testPath ?? '?');
    const packages = [...new Set(missing.map((program) => PACKAGES[program]))].join(' ');
    process.stderr.write(`SKIPPED ${file}, ${skipped}: no ${missing.join(', ')} on PATH (apt-get install ${packages}; CI installs it)\n`);
  }
  return missing;
}

/** `describe` and `test`, or both `.skip` when one of `programs` is missing (said on stderr by missingPrograms). */
export function needs(programs: readonly Program[], skipped = 'every test'): { describe: typeof describe.skip; test: typeof test.skip } {
  return missingPrograms(programs, skipped).length > 0 ? { describe: describe.skip, test: test.skip } : { describe, test };
}
