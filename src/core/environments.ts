/**
 * Environments of the `.http` tools, picked with `--env NAME` (or `REQFLOW_ENV`); the rules are
 * in docs/environments.md.
 * - JetBrains: `http-client.env.json`, overridden by `http-client.private.env.json` (whose values
 *   are secrets: masked in all output);
 * - VS Code REST Client: `rest-client.environmentVariables` in `.vscode/settings.json` (JSONC),
 *   whose values may say `{{$shared name}}`;
 * - httpyac: `environments` in `.httpyac.json` (or under `httpyac` in `package.json`), and
 *   `NAME.env` / `.env.NAME` (dotenv lines), over the `.env` files around them;
 * - resterm: `resterm.env.json` / `rest-client.env.json` (JetBrains' shape, `env:NAME` values).
 * Every JSON kind may have comments; objects are read by dotted names (environment-values.ts).
 * kulala's and rest.nvim's `.env` values are not loaded here: variables.ts reads them for a name
 * nothing else defines.
 * Files are read in every folder from the project root (the nearest folder above the request
 * file with `.git` or `package.json`, else the filesystem root) down to the request file's
 * folder, plus the root's `env/` folder (the farthest of all); a nearer file wins. `$shared`
 * values apply to every environment (and, with httpyac's `$default` ones, when no `--env` is
 * given); an environment's own values win over them.
 */
import { resolve } from 'node:path';
import { UsageError } from './errors/index.js';
import { jsonCandidates, projectRoot, searchFolders } from './environment-search.js';
import type { Environment, LoadEnvironmentOptions } from './environment-files.js';
import { mergeHeaders } from './headers.js';
import type { Profile } from './profile-model.js';

export type { Environment, LoadEnvironmentOptions };


/**
 * The variables of environment `name` (or only the `$shared` ones when no name is given), found
 * from `requestDir` up to the project root. Exit 2 for a name no file defines, a file that is not
 * valid JSON, or a value that is not a string, number or boolean. `note` hears of JetBrains
 * settings that are skipped. Undefined when no file applies.
 */
export async function loadEnvironment(requestDir: string, name: string | undefined, note: (message: string) => void = () => undefined, options: LoadEnvironmentOptions = {}): Promise<Environment | undefined> {
  if (name !== undefined && (name === '' || name === '.' || name === '..' || /[/\\]/.test(name) || name.startsWith('$'))) {
    throw new UsageError(`--env ${JSON.stringify(name)} is not an environment name`, { hint: 'an environment is a name such as dev or prod, not a path' });
  }
  const dir = resolve(requestDir);
  const root = projectRoot(dir);
  const folders = searchFolders(dir, root);
  // Without --env only the JSON kinds apply: with none of them, there is nothing to parse (the usual run).
  if (name === undefined && jsonCandidates(folders).next().done === true) return undefined;
  const { loadFoundEnvironment } = await import('./environment-files.js');
  return loadFoundEnvironment(dir, root, folders, name, note, options);
}

/**
 * The profile a run uses: its own headers over the defaults of the project's tool config
 * (httpyac's `defaultHeaders`, VS Code's `rest-client.defaultHeaders`); a request's own header
 * of that name, in any spelling, wins over both (`mergeHeaders` in the substitute stage).
 */
export function withToolDefaultHeaders(profile: Profile, environment: Environment | undefined): Profile {
  const defaults = environment?.defaultHeaders;
  if (!defaults) return profile;
  // Lower-case keys: the profile's origin of a header replaces the config's, as its value does.
  const headerOrigins = { ...environment.defaultHeaderOrigins, ...profile.headerOrigins };
  return { ...profile, headers: mergeHeaders(defaults, profile.headers) as Record<string, string>, headerOrigins };
}
