/** Where the CLI keeps a profile's session for the request files of a folder (sessions belong to a project and a profile). */
import { projectRoot } from '../../src/core/project.js';
import { sessionPath } from '../../src/core/session.js';

export function sessionFileFor(stateDir: string, requestDir: string, profile = 'default'): string {
  return sessionPath(profile, projectRoot(requestDir), { REQFLOW_STATE_DIR: stateDir });
}
