/**
 * The services of a run over one request file, for `reqflow run` and `reqflow test`: the
 * profile and session (found from the file's folder), the `--env` environment, prompts, the
 * reporter behind the feed, the history, and the chaining state over the file's requests.
 */
import { dirname } from 'node:path';
import type { AgentPool } from '../core/http/agents.js';
import { AbortHooks } from '../core/abort-hooks.js';
import { loadEnvironment, withToolDefaultHeaders } from '../core/environments.js';
import { SessionCookieJar } from '../core/http/cookie-jar.js';
import { proxyConfigured } from '../core/http/proxy-env.js';
import { isSecretName, type SecretRegistry } from '../core/mask.js';
import type { OutputSink, RunOptions } from '../core/model.js';
import { resolveProfile } from '../core/profiles.js';
import { projectRoot, real } from '../core/project.js';
import type { Prompter } from '../core/prompt.js';
import type { PluginRegistry } from '../core/registry.js';
import { loadProfileSession } from '../core/session.js';
import { SCRIPT_GLOBALS } from '../core/variables.js';
import type { InvocationGlobals } from '../core/script-globals.js';
import type { RunServices } from '../pipeline/create-context.js';
import { needsChain, runTexts } from '../chain/needs-chain.js';
import { createChain } from '../pipeline/loop.js';
import { parseRequestFile } from '../pipeline/parse-file.js';
import type { RequestFile } from '../pipeline/request-file.js';
import { openHistory } from '../history/log.js';
import { createFeed } from '../report/feed.js';
import type { Reporter } from '../report/reporter.js';

export interface RunSetup {
  path: string;
  requests: RequestFile;
  options: RunOptions;
  registry: PluginRegistry;
  reporter: Reporter;
  output: OutputSink;
  secrets: SecretRegistry;
  agents: AgentPool;
  signal: AbortSignal;
  io: { stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv; cwd: string };
  profileFlags: { profile?: string; profiles?: string };
  /** `reqflow test`: a file with no environment file at all runs without `--env` (and this hears of it) instead of failing. */
  withoutEnvironmentFiles?: (path: string) => void;
  /** `reqflow test`: the script globals of the invocation, so that a file sees what the files before it set. */
  globals?: InvocationGlobals;
  warn(message: string): void;
}

/** `-p` and `--profiles` as the profile search takes them (absent flags left out). */
export function profileFlagsOf(flags: { profile?: string; profiles?: string }): RunSetup['profileFlags'] {
  return { ...(flags.profile ? { profile: flags.profile } : {}), ...(flags.profiles ? { profiles: flags.profiles } : {}) };
}

/** The prompter of `# @prompt` and `$input` values: its module loads with the first question (most runs ask none). */
function lazyPrompter(interactive: boolean, io: RunSetup['io']): Prompter {
  return async (request) => {
    const { noTerminalPrompter, terminalPrompter } = await import('../core/prompt.js');
    return (interactive ? terminalPrompter(io.stdin, io.stderr) : noTerminalPrompter)(request);
  };
}

export async function runServices(setup: RunSetup): Promise<RunServices> {
  const { path, options, io, secrets, warn } = setup;
  // The request file's real folder: a file linked in from another repository is that repository's (profiles, session, trust).
  const requestDir = dirname(real(path));
  const { profile: own, document } = await resolveProfile({ requestDir, ...(setup.profileFlags.profiles ? { profilesPath: setup.profileFlags.profiles } : {}), ...(setup.profileFlags.profile ? { profile: setup.profileFlags.profile } : {}), env: io.env, cwd: io.cwd });
  for (const field of document.unknownFields?.get(own.name) ?? []) warn(field);
  for (const [name, value] of Object.entries(options.cliVariables)) if (isSecretName(name)) secrets.add(value);
  const trust = async (config: string, required: boolean): Promise<boolean> => (await import('../trust/environment-trust.js')).mayRunConfig(config, required, { flag: options.trust === true, project: projectRoot(requestDir, document.path), file: config }, warn);
  const environment = await loadEnvironment(requestDir, options.environment, warn, { env: io.env, trust, ...(setup.withoutEnvironmentFiles ? { withoutFiles: () => setup.withoutEnvironmentFiles?.(path) } : {}) });
  for (const value of environment?.secrets ?? []) secrets.add(value); // private env files hold secrets
  const profile = withToolDefaultHeaders(own, environment);
  const session = await loadProfileSession(profile.name, document, requestDir, { env: io.env, warn, memory: options.session === false });
  // The session's login token is a secret wherever it turns up again (a response echoing it, a URL).
  const token = session.get('token');
  if (token !== undefined) secrets.add(token);
  const history = openHistory({ options, profile, project: session.project, folder: session.folder, ...(document.path ? { profilesFile: document.path } : {}), secrets, env: io.env, warn });
  const services: RunServices = {
    registry: setup.registry,
    options,
    profile,
    ...(document.path ? { profilesPath: document.path } : {}),
    ...(setup.profileFlags.profiles ? { profilesChosen: true } : {}),
    session,
    ...(environment ? { environment } : {}),
    output: setup.output,
    report: createFeed(setup.reporter, options.scriptTimeoutMs),
    prompter: lazyPrompter(options.interactive === true, io),
    promptCache: new Map(),
    secrets,
    agents: setup.agents,
    signal: setup.signal,
    abort: new AbortHooks(setup.signal),
    runState: {},
    env: io.env,
    ...(options.cookies === false ? {} : { cookies: new SessionCookieJar(session, (value) => secrets.add(value), warn) }),
    // The rules load only for a run that has a proxy: most have none.
    ...(proxyConfigured(options, io.env, profile) ? { proxy: (await import('../core/http/proxy.js')).proxyRules(options, io.env, secrets, profile) } : {}),
    ...(history ? { history } : {}),
  };
  const chained = needsChain(setup.requests, () => runTexts(environment?.variables, profile));
  // Script globals load only for a run that has some (in the session, or from an earlier file of the invocation) or runs scripts.
  if (chained || setup.globals || session.getData(SCRIPT_GLOBALS)) services.globals = (await import('../core/script-globals.js')).openScriptGlobals(session, session.project, secrets, setup.globals, warn);
  if (chained) services.chain = await createChain(setup.requests, path, services, (other) => parseRequestFile(other, setup.registry, warn));
  return services;
}
