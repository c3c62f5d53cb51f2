import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';

/** Folders never searched: dependencies, build output, version control and hidden folders. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'target', 'vendor', '__pycache__']);
/** JSON/YAML files that are configuration, not requests. */
const SKIPPED_FILES = new Set(['package.json', 'package-lock.json', 'tsconfig.json', 'jsconfig.json', 'oclif.manifest.json', 'composer.json', 'docker-compose.yml', 'docker-compose.yaml', 'http-client.env.json', 'http-client.private.env.json']);
const TEXT_FORMATS = new Set(['.http', '.rest', '.ws']);
const DATA_FORMATS = new Set(['.yaml', '.yml', '.json']);

const DISCOVERY_LIMITS = { depth: 6, files: 400 } as const;

/**
 * YAML and JSON files are request files only when they say so (a `url` field); otherwise every
 * config file in a project would show up as a broken request file.
 */
async function looksLikeRequests(path: string): Promise<boolean> {
  try {
    const text = await readFile(path, 'utf8');
    return /(^|[\s{,-])["']?url["']?\s*:/m.test(text.slice(0, 64 * 1024));
  } catch {
    return false;
  }
}

/**
 * Request files under a folder (`.http`, `.rest`, `.ws`, and `.yaml`/`.yml`/`.json` that hold requests),
 * as paths relative to it, sorted. Bounded in depth and count so a huge tree cannot stall the UI.
 */
export async function discoverRequestFiles(root: string, limits: { depth: number; files: number } = DISCOVERY_LIMITS): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folders are skipped, not fatal
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= limits.files) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < limits.depth && !entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) await walk(path, depth + 1);
        continue;
      }
      if (!entry.isFile() || entry.name.startsWith('.') || SKIPPED_FILES.has(entry.name)) continue;
      const ext = extname(entry.name).toLowerCase();
      if (TEXT_FORMATS.has(ext) || (DATA_FORMATS.has(ext) && (await looksLikeRequests(path)))) files.push(relative(root, path));
    }
  };
  await walk(root, 0);
  return { files, truncated };
}
