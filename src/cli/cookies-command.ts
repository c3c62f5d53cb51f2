/**
 * `reqflow cookies list|clear`: the cookies kept in a profile's session. Values are never
 * printed (they are credentials); names, domains, paths and expiry are.
 */
import { SessionCookieJar } from '../core/http/cookie-jar.js';
import { SecretRegistry } from '../core/mask.js';
import { resolveProfile } from '../core/profiles.js';
import { loadProfileSession } from '../core/session.js';
import { visible, visibleJson, warningLine } from '../report/render/visible.js';
import { exitCodeOf } from './report-error.js';

export interface CookiesFlags {
  profile?: string;
  profiles?: string;
  domain?: string;
  json?: boolean;
  debug?: boolean;
}

async function jarOf(flags: CookiesFlags, warn: (message: string) => void) {
  const cwd = process.cwd();
  const { profile, document } = await resolveProfile({ requestDir: cwd, cwd, env: process.env, ...(flags.profiles ? { profilesPath: flags.profiles } : {}), ...(flags.profile ? { profile: flags.profile } : {}) });
  const session = await loadProfileSession(profile.name, document, cwd, { env: process.env, warn });
  return { profile: profile.name, session, jar: new SessionCookieJar(session, () => undefined, warn) };
}

export function cookiesCommand(action: 'list' | 'clear', flags: CookiesFlags): Promise<number> {
  const secrets = new SecretRegistry();
  const warn = (message: string): void => void process.stderr.write(`${warningLine(message)}\n`);
  return exitCodeOf(
    async () => {
      const { profile, session, jar } = await jarOf(flags, warn);
      if (action === 'clear') {
        const count = await jar.clear(flags.domain);
        await session.save();
        process.stdout.write(`removed ${count} ${count === 1 ? 'cookie' : 'cookies'} of profile "${profile}"${flags.domain ? ` for ${flags.domain}` : ''}\n`);
        return 0;
      }
      const cookies = (await jar.list()).filter((cookie) => flags.domain === undefined || cookie.domain === flags.domain || cookie.domain.endsWith(`.${flags.domain}`));
      if (flags.json) {
        process.stdout.write(`${visibleJson(JSON.stringify({ profile, cookies }))}\n`);
        return 0;
      }
      if (cookies.length === 0) {
        process.stdout.write(`no cookies kept for profile "${profile}"\n`);
        return 0;
      }
      const lines = cookies.map((c) => [c.domain, c.path, c.name, c.expires, [c.secure ? 'Secure' : '', c.httpOnly ? 'HttpOnly' : ''].filter(Boolean).join(' ')].map((field) => visible(field)).join('\t'));
      process.stdout.write(`domain\tpath\tname\texpires\tflags\n${lines.join('\n')}\n`);
      return 0;
    },
    process.stderr,
    () => ({ debug: flags.debug === true, secrets }),
    () => undefined,
  );
}
