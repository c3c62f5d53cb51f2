/**
 * An import to files: the `.http` files (and the body files they include), the JetBrains
 * environment files and any extra file. Every target is checked before the first is written,
 * so a refused import leaves nothing behind; each file is written atomically.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createFileAtomic, writeFileAtomic } from '../core/atomic-write.js';
import { UsageError } from '../core/errors/index.js';
import type { Imported } from './model.js';
import { renderHttpFile, type RenderedFile } from './render-http.js';

const ENV_FILE = 'http-client.env.json';
const PRIVATE_ENV_FILE = 'http-client.private.env.json';

interface Planned extends RenderedFile {
  /** Secrets: written 0600. */
  secret: boolean;
  /** What the summary line says about it. */
  note: string;
}

function plan(imported: Imported, outDir: string): Planned[] {
  const planned: Planned[] = [];
  for (const file of imported.files) {
    const [http, ...bodies] = renderHttpFile(file, outDir);
    const count = file.requests.length;
    planned.push({ ...(http as RenderedFile), secret: false, note: `${count} ${count === 1 ? 'request' : 'requests'}` });
    for (const body of bodies) planned.push({ ...body, secret: false, note: 'a body, included with < ./file' });
  }
  const { public: values, secret } = imported.variables.split();
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  planned.push({ path: ENV_FILE, content: `${JSON.stringify({ [imported.envName]: values }, null, 2)}\n`, secret: false, note: `environment "${imported.envName}": ${count(Object.keys(values).length, 'variable')}` });
  if (Object.keys(secret).length > 0) {
    planned.push({ path: PRIVATE_ENV_FILE, content: `${JSON.stringify({ [imported.envName]: secret }, null, 2)}\n`, secret: true, note: `environment "${imported.envName}": ${count(Object.keys(secret).length, 'secret')} (${Object.keys(secret).join(', ')})` });
  }
  for (const extra of imported.extraFiles) planned.push({ path: extra.path, content: extra.text, secret: false, note: 'a profiles file' });
  // Two files of one import at one path: the second would replace the first's requests unseen.
  // Names are made unique where they are made; should two still meet, the import is refused, not a crash.
  const paths = new Set<string>();
  for (const file of planned) {
    // Every file in the folder asked for: a name a document chose never leads out of it (names.ts makes them so).
    const inside = relative(outDir, resolve(outDir, file.path));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new UsageError(`the import would write ${file.path}, outside ${outDir}: nothing was written`, { hint: 'rename it in the document imported' });
    const key = file.path.toLowerCase();
    if (paths.has(key)) throw new UsageError(`the import would write ${file.path} twice (two of its names become this one file name): nothing was written`, { hint: 'rename one of them in the document imported' });
    paths.add(key);
  }
  return planned;
}

/** Whether anything is at `path`, a link included (a dangling one too: a file cannot be made there). */
function occupied(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder of `target` as it is on disk, when that is outside `outDir`: a subfolder that is a
 * symbolic link (`NAME.bodies` → `~/.config`, shipped by a repository) would have the import
 * write through it, outside the folder asked for. Undefined when it stays inside.
 */
function leadsOut(outDir: string, target: string): string | undefined {
  let folder = dirname(target);
  while (folder !== outDir && !occupied(folder)) folder = dirname(folder);
  if (!occupied(folder)) return undefined; // nothing of it exists yet: made by the import itself
  const real = realpathSync(folder);
  const inside = relative(realpathSync(outDir), real);
  return inside.startsWith('..') || isAbsolute(inside) ? real : undefined;
}

/** Writes the import into `outDir`; returns one summary line per file (names, never values). */
export async function writeImport(imported: Imported, outDir: string, options: { force: boolean; cwd: string }): Promise<string[]> {
  const planned = plan(imported, outDir);
  // Relative to where the command runs, unless that climbs out of it.
  const shown = (path: string): string => {
    const fromCwd = relative(options.cwd, join(outDir, path));
    return fromCwd.startsWith('..') ? join(outDir, path) : fromCwd;
  };
  const exists = (path: string): UsageError => new UsageError(`${shown(path)} exists: not overwritten`, { hint: 'pass --force to replace it, or -o DIR to import into another folder' });
  // All checked first, so that a refused import writes nothing…
  for (const file of planned) {
    const real = leadsOut(outDir, join(outDir, file.path));
    if (real !== undefined) throw new UsageError(`the import would write ${shown(file.path)} through a symbolic link, into ${real}, outside ${outDir}: nothing was written`, { hint: 'remove the link, or import into another folder with -o DIR' });
  }
  if (!options.force) {
    const existing = planned.find((file) => occupied(join(outDir, file.path)));
    if (existing) throw exists(existing.path);
  }
  for (const file of planned) {
    const target = join(outDir, file.path);
    const mode = { mode: file.secret ? 0o600 : 0o644, dirMode: 0o755 };
    if (options.force) await writeFileAtomic(target, file.content, mode);
    // …and each created only where no file is, even one made since the check.
    else if (!(await createFileAtomic(target, file.content, mode))) throw exists(file.path);
  }
  return planned.map((file) => `wrote ${shown(file.path)} (${file.note})`);
}
