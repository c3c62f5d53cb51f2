/**
 * What the three `reqflow oauth` commands share: find the profile and its session, expand
 * `{{...}}` in the oauth settings, report errors as one line with the right exit code. The
 * oclif command classes stay thin (parse flags, call this).
 */
import { proxyRules, type ProxyRules } from '../../core/http/proxy.js';
import { formatError } from '../../cli/report-error.js';
import { ExitCode, UsageError } from '../../core/errors/index.js';
import { SecretRegistry } from '../../core/mask.js';
import type { Profile } from '../../core/model.js';
import { resolveProfile } from '../../core/profiles.js';
import { noTerminalPrompter, terminalPrompter } from '../../core/prompt.js';
import { loadProfileSession, type FileSession } from '../../core/session.js';
import { TemplateResolver } from '../../core/variables.js';
import { parseDuration } from '../../core/duration.js';
import { warningLine } from '../../report/render/visible.js';
import { TOKEN_VARIABLE, readStored } from './token-store.js';

export interface OAuthCommandFlags {
  profile?: string;
  profiles?: string;
  debug?: boolean;
}

export interface OAuthCommandContext {
  profile: Profile;
  session: FileSession;
  /** Expands `{{...}}` (prompts on a terminal for interactive variables). */
  expand(text: string): Promise<string>;
  /** Values to hide in every message (client secret, tokens). */
  secrets: SecretRegistry;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** The profile's proxy, else the environment's: OAuth calls go through it. */
  proxy: ProxyRules;
  out(text: string): void;
  err(line: string): void;
  warn(message: string): void;
}

export async function runOAuthCommand(flags: OAuthCommandFlags, action: (ctx: OAuthCommandContext) => Promise<number>): Promise<number> {
  const secrets = new SecretRegistry();
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  const env = process.env;
  const cwd = process.cwd();
  const err = (line: string): void => void process.stderr.write(`${secrets.scrub(line)}\n`);
  // A warning may quote a server's text (a failed revocation): one line, its controls made visible.
  const warn = (message: string): void => err(warningLine(message));
  try {
    const { profile, document } = await resolveProfile({ requestDir: cwd, cwd, env, ...(flags.profiles ? { profilesPath: flags.profiles } : {}), ...(flags.profile ? { profile: flags.profile } : {}) });
    if (flags.profile === undefined && !env.REQFLOW_PROFILE && document.profiles.length === 0) {
      throw new UsageError('no profiles found (.profiles.json)', { hint: 'create a .profiles.json with an "oauth" object in the current folder, or pass --profiles PATH' });
    }
    const session = await loadProfileSession(profile.name, document, cwd, { env, warn });
    secrets.add(session.get(TOKEN_VARIABLE));
    secrets.add(readStored(session)?.refreshToken);
    const resolver = new TemplateResolver({
      cliVariables: {},
      session,
      profile,
      prompter: process.stdin.isTTY ? terminalPrompter(process.stdin, process.stderr) : noTerminalPrompter,
      promptCache: new Map(),
      secrets,
      signal: controller.signal,
      env,
      ...(document.path ? { profilesPath: document.path } : {}),
    });
    return await action({
      profile,
      session,
      expand: (text) => resolver.expand(text),
      secrets,
      signal: controller.signal,
      env,
      proxy: proxyRules({}, env, secrets, profile),
      out: (text) => void process.stdout.write(text),
      err,
      warn,
    });
  } catch (error) {
    if (controller.signal.aborted) {
      err('reqflow: cancelled');
      return ExitCode.interrupted;
    }
    const { text, exitCode } = formatError(error, { debug: flags.debug === true || env.REQFLOW_DEBUG === '1', secrets });
    process.stderr.write(text);
    return exitCode;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** `--wait 90`, `90s`, `5m`, `1500ms` → milliseconds. A plain number is seconds. */
export function parseWait(text: string): number {
  const ms = parseDuration(text, 's');
  if (ms === undefined || !(ms > 0)) throw new UsageError(`--wait expects a duration such as 300, 90s, 5m or 1500ms, got "${text}"`);
  return ms;
}
