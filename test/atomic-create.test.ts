/**
 * `createFileAtomic`: a file written aside and linked into place, never over one that is there —
 * the importers, the debugging proxy's saved requests and the k6 export refuse to overwrite what
 * the user has, even a file made between their check and their write. Real files in a temp folder.
 */
import { afterAll, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileAtomic, writeFileAtomic } from '../src/core/atomic-write.js';
import { tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-atomic-create-');
afterAll(() => tmp.cleanup());

test('creates a file that is not there, with its mode, in folders it makes; no temp file is left', async () => {
  const path = join(tmp.dir, 'new/deep/api.http');
  expect(await createFileAtomic(path, 'GET http://127.0.0.1/\n', { mode: 0o640, dirMode: 0o755 })).toBe(true);
  expect(readFileSync(path, 'utf8')).toBe('GET http://127.0.0.1/\n');
  expect(statSync(path).mode & 0o777).toBe(0o640);
  expect(readdirSync(join(tmp.dir, 'new/deep'))).toEqual(['api.http']);
});

test('a file that is there is kept byte for byte (false), and nothing else is left beside it', async () => {
  const path = join(tmp.dir, 'mine.http');
  writeFileSync(path, 'my own edit\n');
  expect(await createFileAtomic(path, 'imported\n')).toBe(false);
  expect(readFileSync(path, 'utf8')).toBe('my own edit\n');
  expect(readdirSync(tmp.dir).filter((name) => name.includes('mine'))).toEqual(['mine.http']);
  // writeFileAtomic is the one that replaces (--force).
  await writeFileAtomic(path, 'imported\n');
  expect(readFileSync(path, 'utf8')).toBe('imported\n');
});

test('eight creators of one path: exactly one creates it, the others find it there; the file is the creator\'s, whole', async () => {
  const path = join(tmp.dir, 'raced.http');
  const contents = Array.from({ length: 8 }, (_, i) => `writer ${i}\n`.repeat(10_000));
  const results = await Promise.all(contents.map((content) => createFileAtomic(path, content)));
  expect(results.filter(Boolean)).toHaveLength(1);
  expect(readFileSync(path, 'utf8')).toBe(contents[results.indexOf(true)]);
});
