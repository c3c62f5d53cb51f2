/**
 * `reqflow globals list|clear`: the script globals (`client.global.set`, httpyac's `$global`)
 * kept in the session of the current folder's project and a profile. Values are masked unless
 * `--show` asks for them: a login handler's global is usually a token.
 */
import { MASK, SecretRegistry } from '../core/mask.js';
import { resolveProfile } from '../core/profiles.js';
import { openScriptGlobals } from '../core/script-globals.js';
import { loadProfileSession } from '../core/session.js';
import { visible, visibleJson, warningLine } from '../report/render/visible.js';
import { exitCodeOf } from './report-error.js';

export interface GlobalsFlags {
  profile?: string;
  profiles?: string;
  show?: boolean;
  json?: boolean;
  debug?: boolean;
}

export function globalsCommand(action: 'list' | 'clear', flags: GlobalsFlags, names: readonly string[] = []): Promise<number> {
  const secrets = new SecretRegistry();
  const warn = (message: string): void => void process.stderr.write(`${warningLine(message)}\n`);
  return exitCodeOf(
    async () => {
      const cwd = process.cwd();
      const { profile, document } = await resolveProfile({ requestDir: cwd, cwd, env: process.env, ...(flags.profiles ? { profilesPath: flags.profiles } : {}), ...(flags.profile ? { profile: flags.profile } : {}) });
      const session = await loadProfileSession(profile.name, document, cwd, { env: process.env, warn });
      const globals = openScriptGlobals(session, session.project, secrets);
      if (action === 'clear') {
        const known = names.length === 0 ? globals.entries().map(([name]) => name) : names.filter((name) => globals.get(name) !== undefined);
        if (names.length === 0) globals.clear();
        else for (const name of known) globals.delete(name);
        await session.save();
        process.stdout.write(`removed ${known.length} ${known.length === 1 ? 'global' : 'globals'} of profile "${profile.name}"\n`);
        return 0;
      }
      const shown = (value: string): string => (flags.show === true ? value : value === '' ? '' : MASK);
      const entries = globals.entries().map(([name, value]) => [name, shown(value)] as const);
      if (flags.json) {
        process.stdout.write(`${visibleJson(JSON.stringify({ profile: profile.name, project: session.project, globals: Object.fromEntries(entries) }))}\n`);
        return 0;
      }
      if (entries.length === 0) {
        process.stdout.write(`no script globals kept for profile "${profile.name}"\n`);
        return 0;
      }
      process.stdout.write(`${entries.map(([name, value]) => `${visible(name)}\t${visible(value)}`).join('\n')}\n`);
      return 0;
    },
    process.stderr,
    () => ({ debug: flags.debug === true, secrets }),
    () => undefined,
  );
}
