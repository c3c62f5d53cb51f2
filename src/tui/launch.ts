import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CliIo } from '../cli/run-file.js';
import { formatError } from '../cli/report-error.js';
import type { RawRunFlags } from '../cli/run-flags.js';
import { toRunOptions } from '../cli/run-options.js';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import type { PluginEntry } from '../core/registry.js';
import { checkTerminal } from './terminal-check.js';
import { releaseLostTerminal, terminalFds } from './terminal-loss.js';
import { warningLine } from '../report/render/visible.js';

/** The `run` flags that mean something in the UI. */
export const TUI_FLAGS = ['variable', 'profile', 'profiles', 'env', 'timeout', 'max-time', 'extract', 'insecure', 'follow', 'max-size', 'history', 'trust', 'debug'] as const;

/** The folder to browse: DIR, the folder of a request file given instead, else the current folder. */
async function folderOf(arg: string | undefined, cwd: string): Promise<string> {
  const path = resolve(cwd, arg ?? '.');
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new UsageError(`no such folder: ${arg}`, { hint: 'usage: reqflow tui [DIR]' });
  }
  return info.isDirectory() ? path : dirname(path);
}

/**
 * `reqflow` / `reqflow tui [DIR]`: checks that there is a terminal, then hands over to the UI
 * (imported only now: neo-blessed never loads for `reqflow run`). Never throws.
 */
export async function launchTui(dirArg: string | undefined, flags: RawRunFlags, io: CliIo, loadThirdParty: (warn: (message: string) => void) => Promise<PluginEntry[]>): Promise<number> {
  const secrets = new SecretRegistry();
  try {
    checkTerminal(io);
    const ttys = terminalFds();
    const dir = await folderOf(dirArg, io.cwd);
    const options = toRunOptions({ ...flags, output: 'pretty', color: true }, { stdoutIsTTY: true, stdinIsTTY: true, env: io.env });
    const thirdParty = await loadThirdParty((message) => io.stderr.write(`${warningLine(message)}\n`));
    const { runTui } = await import('./index.js');
    return await runTui(
      { dir, cwd: io.cwd, env: io.env, options, thirdParty, ...(flags.profile ? { profile: flags.profile } : {}), ...(flags.profiles ? { profilesPath: flags.profiles } : {}) },
      { input: io.stdin, output: io.stdout, ...(io.stdin === process.stdin ? { release: () => releaseLostTerminal(ttys, process.stdin) } : {}) },
    );
  } catch (error) {
    const { text, exitCode } = formatError(error, { debug: flags.debug === true, secrets });
    io.stderr.write(text);
    return exitCode;
  }
}
