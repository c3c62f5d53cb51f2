/**
 * The oldest Node.js that package.json `engines` promises runs every runtime dependency: each
 * package in `dependencies`, and each one they pull in as installed under node_modules, either
 * says nothing of Node or admits that version. A dependency that needs a newer Node installs
 * with only a warning, then fails at run time for a user on the version we promise.
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import semver from 'semver';
import { ROOT } from './helpers/cli.js';

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The folder Node loads package `name` from when `from` requires it: the nearest node_modules up to the project's. */
function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; dir.startsWith(ROOT); dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') continue;
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

interface Installed {
  /** How it is reached: `@oclif/plugin-plugins > npm`. */
  path: string;
  manifest: Manifest;
}

/** Every package the runtime dependencies bring, once each, as installed; and the required ones that are missing. */
function runtimeTree(): { installed: Installed[]; missing: string[] } {
  const installed: Installed[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const queue: Array<{ dir: string; path: string[]; needs: Manifest }> = [{ dir: ROOT, path: [], needs: manifestOf(ROOT) }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { dir, path, needs } = next;
    const optional = Object.keys(needs.optionalDependencies ?? {});
    for (const name of [...Object.keys(needs.dependencies ?? {}), ...optional]) {
      const found = resolvePackage(name, dir);
      if (!found) {
        // An optional dependency for another platform is simply not installed.
        if (!optional.includes(name)) missing.push([...path, name].join(' > '));
        continue;
      }
      if (seen.has(found)) continue;
      seen.add(found);
      const manifest = manifestOf(found);
      installed.push({ path: [...path, name].join(' > '), manifest });
      queue.push({ dir: found, path: [...path, name], needs: manifest });
    }
  }
  return { installed, missing };
}

/** Whether a package's `engines.node` admits Node `version` (no range: any Node), as npm's own check reads it. */
const admits = (range: string | undefined, version: string): boolean => range === undefined || semver.satisfies(version, range, { includePrerelease: true });

const ownRange = manifestOf(ROOT).engines?.node;

describe('the Node.js floor in package.json engines', () => {
  test('is a valid range with a lowest version', () => {
    expect(semver.validRange(ownRange)).not.toBeNull();
    expect(semver.minVersion(ownRange as string)).not.toBeNull();
  });

  test('is admitted by every installed runtime dependency, direct or not', () => {
    const floor = (semver.minVersion(ownRange as string) as semver.SemVer).version;
    const { installed, missing } = runtimeTree();
    expect(missing).toEqual([]);
    // The walk reached the whole tree, not just the direct dependencies.
    expect(installed.length).toBeGreaterThan(Object.keys(manifestOf(ROOT).dependencies ?? {}).length);
    const refusing = installed
      .filter(({ manifest }) => !admits(manifest.engines?.node, floor))
      .map(({ path, manifest }) => `${path}@${manifest.version} needs Node ${manifest.engines?.node}`);
    expect({ floor, refusing }).toEqual({ floor, refusing: [] });
  });

  test('control: the check refuses a range that excludes the floor, and reads ranges as npm does', () => {
    expect(admits('>=22.0.0', '20.17.0')).toBe(false); // jsonpath-plus 11
    expect(admits('^20.17.0 || >=22.9.0', '20.16.0')).toBe(false); // npm 11
    expect(admits('^20.17.0 || >=22.9.0', '20.17.0')).toBe(true);
    expect(admits('>= 20.16.0', '20.17.0')).toBe(true);
    expect(admits(undefined, '20.17.0')).toBe(true);
  });
});
