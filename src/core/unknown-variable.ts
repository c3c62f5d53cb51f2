/**
 * The error of a variable nothing defines, with its hint: loaded only when one is met (the
 * resolver, `variables.ts`, is on every run's path).
 */
import { relative } from 'node:path';
import { VariableError } from './errors/index.js';
import { closestName } from './suggest.js';
import type { Profile, Session } from './model.js';

/** What the resolver knows that the hint reads (its `HintSources`). */
interface HintSources {
  cliVariables: Readonly<Record<string, string>>;
  fileVariables?: Readonly<Record<string, string>> | undefined;
  environmentVariables?: Readonly<Record<string, string>> | undefined;
  environmentName?: string | undefined;
  globals?: { entries(): Array<[string, string]> } | undefined;
  session: Session;
  profile: Profile;
  profilesPath?: string | undefined;
  baseDir?: string | undefined;
  preview?: unknown;
}

/** Each name this request could use, with where it is defined (for "did you mean"). */
function definedNames(options: HintSources): Array<[name: string, where: string]> {
  const { cliVariables, fileVariables, session, environmentVariables, environmentName, profile, profilesPath, globals } = options;
  const from = (names: Iterable<string>, where: string): Array<[string, string]> => [...names].map((name) => [name, where]);
  return [
    ...from(Object.keys(cliVariables), 'set with -e'),
    ...Object.keys(fileVariables ?? {}).map((name): [string, string] => [name, `a file variable: @${name} = …`]),
    ...from(session.names(), `in the session of profile "${session.profile}"`),
    ...from(Object.keys(environmentVariables ?? {}), environmentName === undefined ? 'in the $shared values of the environment files' : `in environment "${environmentName}"`),
    ...from(Object.keys(profile.variables), `in profile "${profile.name}"${profilesPath ? ` of ${profilesPath}` : ''}`),
    ...from(globals?.entries().map(([name]) => name) ?? [], 'a script global (client.global.set)'),
  ];
}

async function likelyFix(name: string, options: HintSources): Promise<string | undefined> {
  const { baseDir, environmentName } = options;
  // The environment files' parser loads here, not with every run.
  const others = baseDir === undefined ? new Map<string, Map<string, string>>() : await (await import('./environment-files.js')).environmentDefinitions(baseDir);
  if (environmentName !== undefined) others.delete(environmentName);
  const defining = [...others].filter(([, names]) => names.has(name));
  if (defining.length > 0) {
    const envs = defining.map(([env, names]) => `--env ${env} (${relative(baseDir as string, names.get(name) as string)})`);
    return `${envs.join(' or ')} ${defining.length === 1 ? 'defines' : 'define'} it; or set it with -e ${name}=value`;
  }
  // The names in use first: where one is also in an environment not picked, it is the one that applies.
  const defined = [...definedNames(options), ...[...others].flatMap(([env, names]) => [...names.keys()].map((other): [string, string] => [other, `--env ${env} defines it`]))];
  const guess = closestName(name, defined.map(([other]) => other));
  return guess === undefined ? undefined : `did you mean "{{${guess}}}"? (${defined.find(([other]) => other === guess)?.[1]})`;
}

/** Where a value could go: .profiles.json is named only when there is one, else how to start one. */
function whereToSet(name: string, options: HintSources): string {
  const { profile, profilesPath } = options;
  // `GET /users` with no Host: header takes its host from the variable `host` (httpyac).
  const origin = name === 'host' ? ' (a target such as /users takes its host from a Host: header or from host: @host = http://localhost:8080)' : '';
  const where = profilesPath
    ? `, in the "variables" of profile "${profile.name}" in ${profilesPath}, or from an earlier response (session)`
    : `, or in a .profiles.json beside the request file: [{"name": "${profile.name}", "variables": {"${name}": "…"}}]`;
  return `set it with -e ${name}=value${where}${origin}`;
}

/**
 * An unknown variable. Its hint, most useful first: the environment (not picked) that defines
 * it; else a name close to it and where that is defined (`{{baseUrll}}` → `{{baseUrl}}`); else
 * where it could be set. `where` names the request (` in request "x"`), `at` the `file:line`
 * the template is written on, when the request file tells.
 */
export async function unknownVariable(name: string, options: HintSources, where: string, at?: string): Promise<VariableError> {
  // Preview (the TUI's request pane) shows the template as written: no files read for a hint nobody sees.
  const fix = options.preview ? undefined : await likelyFix(name, options);
  return new VariableError(`${at === undefined ? '' : `${at}: `}unknown variable "${name}"${where}`, { hint: fix ?? whereToSet(name, options) });
}
