/**
 * `--baseline REV|DIR`: the build to compare against ("the build of the previous release
 * measured the same way", issue 23). A folder is used as it is (a checkout where `npm ci` and
 * `npm run build` were run); anything else is a git revision, checked out into a temporary
 * worktree of this repository and built there with this checkout's node_modules (a revision
 * whose dependencies differ needs the folder form). Optional: without it, no baseline rows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Runs a command to completion; throws with its last lines of output when it fails. */
function run(file, args, cwd, timeoutMs) {
  const result = spawnSync(file, args, { cwd, encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    const tail = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`${file} ${args.join(' ')} failed${result.error ? ` (${result.error.message})` : ''}: ${tail}`);
  }
  return result.stdout.trim();
}

/**
 * Resolves `spec` to a built reqflow: `{ label, bin, cleanup }`, `bin` being its bin/run.cjs.
 * Building a revision takes a minute or two (tsc and the bundles).
 */
export function prepareBaseline(spec, root) {
  const folder = resolve(spec);
  if (existsSync(join(folder, 'bin', 'run.cjs'))) {
    if (!existsSync(join(folder, 'dist', 'cli', 'fast-run.js'))) throw new Error(`--baseline ${spec}: no dist/ there: run \`npm ci && npm run build\` in it first`);
    return { label: `baseline (${spec})`, bin: join(folder, 'bin', 'run.cjs'), cleanup: () => {} };
  }
  let commit;
  try {
    commit = run('git', ['rev-parse', '--short', '--verify', `${spec}^{commit}`], root, 20_000);
  } catch {
    throw new Error(`--baseline ${spec}: neither a built checkout (a folder with bin/run.cjs) nor a git revision of this repository`);
  }
  const parent = mkdtempSync(join(tmpdir(), 'reqflow-bench-baseline-'));
  const tree = join(parent, 'tree');
  const cleanup = () => {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
    rmSync(parent, { recursive: true, force: true });
  };
  try {
    run('git', ['worktree', 'add', '--detach', tree, commit], root, 60_000);
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
    console.error(`bench: building the baseline ${spec} (${commit}) in ${tree} ...`);
    run('npm', ['run', 'build', '--silent'], tree, 600_000);
  } catch (error) {
    cleanup();
    throw new Error(`--baseline ${spec}: ${error.message}`);
  }
  return { label: `baseline (${spec})`, bin: join(tree, 'bin', 'run.cjs'), cleanup };
}
