/**
 * No file of an import is written outside `-o DIR`, a subfolder that is a symbolic link included
 * (docs/import.md): a repository can ship `out/NAME.bodies` or `out/FOLDER` as a link to
 * `~/.config/…`, and the import wrote its body files or a folder's requests there. Now exit 2
 * naming the file and where the link leads, and nothing written — nor when a dangling link
 * stands where a file would go (it was found only after the files before it were written).
 */
import { expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { runImport } from './helpers/import-fixture.js';

test('curl: a body file is not written through out/NAME.bodies, a link to a folder outside', async () => {
  const tmp = tempDir('reqflow-import-links-curl-');
  try {
    mkdirSync(join(tmp.dir, 'out'));
    mkdirSync(join(tmp.dir, 'elsewhere'));
    symlinkSync('../elsewhere', join(tmp.dir, 'out', 'post-p.bodies'));
    // A body ending in a line break goes to a body file (a .http file cannot hold it as written).
    const result = await runImport(['curl', "curl --data-raw $'x\\n' http://127.0.0.1:9/p", '-o', 'out'], tmp.dir);
    expect(result.stderr).toMatch(/^reqflow: the import would write out\/post-p\.bodies\/post-p\.\w+ through a symbolic link, into .*elsewhere, outside .*out: nothing was written\n/);
    expect(result.code).toBe(2);
    expect(readdirSync(join(tmp.dir, 'elsewhere'))).toEqual([]);
    expect(readdirSync(join(tmp.dir, 'out'))).toEqual(['post-p.bodies']);
  } finally {
    tmp.cleanup();
  }
});

test('postman: a folder\'s requests are not written through out/FOLDER, a link outside; --force does not either', async () => {
  const tmp = tempDir('reqflow-import-links-postman-');
  try {
    const collection = {
      info: { name: 'api', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'admin', item: [{ name: 'users', item: [{ name: 'list', request: { method: 'GET', url: 'http://127.0.0.1:9/u' } }] }] }],
    };
    tmp.write('api.postman_collection.json', JSON.stringify(collection));
    mkdirSync(join(tmp.dir, 'out'));
    mkdirSync(join(tmp.dir, 'elsewhere'));
    symlinkSync('../elsewhere', join(tmp.dir, 'out', 'admin'));
    for (const force of [[], ['--force']]) {
      const result = await runImport(['postman', 'api.postman_collection.json', '-o', 'out', ...force], tmp.dir);
      expect(result.stderr).toMatch(/\nreqflow: the import would write out\/admin\/users\.http through a symbolic link, into .*elsewhere, outside .*out: nothing was written\n/);
      expect(result.code).toBe(2);
      expect(readdirSync(join(tmp.dir, 'elsewhere'))).toEqual([]);
      expect(readdirSync(join(tmp.dir, 'out'))).toEqual(['admin']);
    }
  } finally {
    tmp.cleanup();
  }
});

test('a dangling link where a file would go refuses the import before any file is written', async () => {
  const tmp = tempDir('reqflow-import-links-dangling-');
  try {
    mkdirSync(join(tmp.dir, 'out'));
    symlinkSync(join(tmp.dir, 'nowhere.json'), join(tmp.dir, 'out', 'http-client.env.json'));
    const result = await runImport(['curl', 'curl http://127.0.0.1:9/p', '-o', 'out'], tmp.dir);
    expect(result.stderr).toMatch(/^reqflow: out\/http-client\.env\.json exists: not overwritten\n/);
    expect(result.code).toBe(2);
    expect(existsSync(join(tmp.dir, 'out', 'get-p.http'))).toBe(false);
    expect(existsSync(join(tmp.dir, 'nowhere.json'))).toBe(false);
  } finally {
    tmp.cleanup();
  }
});
