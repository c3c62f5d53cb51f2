/**
 * The edit loop, headless: `E` opens the selected request in $EDITOR at its line (here a script
 * standing in for an editor: it records its arguments and edits the file), the files reload
 * after it; a request appended to a file from outside appears by itself, the selection kept.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editorCommand } from '../src/tui/editor-command.js';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv } from './helpers/tui-harness.js';

let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(() => {
  workspace = tempDir('reqflow-tui-edit-');
  workspace.write('api.http', ['### first', 'GET http://127.0.0.1:1/first', '', '### second', 'GET http://127.0.0.1:1/second', ''].join('\n'));
  // An "editor" named vim (so it gets +LINE, the request line): writes its arguments to a file and renames a request.
  const editor = workspace.write(
    'bin/vim',
    ['#!/bin/sh', `printf '%s\\n' "$@" > "${workspace.dir}/editor-args"`, 'file="$3"', "sed -i 's/^### second$/### second edited/' \"$file\"", ''].join('\n'),
  );
  chmodSync(editor, 0o755);
});

afterAll(() => workspace.cleanup());

describe('the edit loop', () => {
  it('E opens the selected request in $EDITOR at its line, and the edit shows when the editor exits', async () => {
    const env = { ...isolatedEnv(workspace.dir), EDITOR: 'nano', VISUAL: `${workspace.dir}/bin/vim -p` };
    const h = await startHarness({ dir: workspace.dir, env });
    await h.press('g', 'j', 'j'); // the file row, first, second
    await h.waitFor('Request · second');
    await h.press('E');
    await h.waitFor('second edited');
    expect(readFileSync(join(workspace.dir, 'editor-args'), 'utf8')).toBe(`-p\n+5\n${join(workspace.dir, 'api.http')}\n`);
    expect(h.status()).toContain('request files reloaded');
  });

  it('a request appended to a file from outside appears by itself, and the selection stays', async () => {
    const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });
    await h.press('g', 'j');
    await h.waitFor('Request · first');
    appendFileSync(join(workspace.dir, 'api.http'), ['', '### appended later', 'GET http://127.0.0.1:1/later', ''].join('\n'));
    // The waits' bounds catch a watcher that never fires; how soon it fires is not measured here.
    const screen = await h.waitFor('appended later', 10_000);
    expect(screen).toContain('Request · first');
    workspace.write('more/new.http', '### in a new file\nGET http://127.0.0.1:1/new\n');
    await h.waitFor('in a new file', 10_000);
  });
});

describe('request files: new, duplicate, rename, delete', () => {
  it('creates, copies and renames files without ever replacing one, and moves a deleted one to the trash', async () => {
    const dir = tempDir('reqflow-tui-files-');
    const state = tempDir('reqflow-tui-files-state-'); // outside the folder: the trash is not a request folder
    try {
      dir.write('keep.http', '### keep me\nGET http://127.0.0.1:1/keep\n');
      const h = await startHarness({ dir: dir.dir, env: isolatedEnv(dir.dir, state.dir) });
      const status = (): string => h.text().split('\n').pop() ?? '';
      // a: a new file with a template request, selected.
      await h.press('a');
      await h.waitFor('Create the file');
      await h.press('C-u');
      await h.type('made/fresh');
      await h.press('enter');
      await h.waitFor(() => status().includes('created made/fresh.http'));
      expect(readFileSync(join(dir.dir, 'made/fresh.http'), 'utf8')).toContain('### new request');
      await h.waitFor('▾ fresh.http'); // in the folder node made/
      // D: a copy; R onto a taken name is refused.
      await h.press('D');
      await h.waitFor('Duplicate the file');
      await h.press('enter'); // fresh-copy.http
      await h.waitFor(() => status().includes('copied to made/fresh-copy.http'));
      expect(readFileSync(join(dir.dir, 'made/fresh-copy.http'), 'utf8')).toBe(readFileSync(join(dir.dir, 'made/fresh.http'), 'utf8'));
      await h.press('R', 'C-u');
      await h.type('../keep.http');
      await h.press('enter');
      await h.waitFor(() => status().includes('keep.http exists'));
      expect(readFileSync(join(dir.dir, 'keep.http'), 'utf8')).toContain('### keep me');
      // A name the tree would not show (hidden, or in a folder it skips) is refused: the file would vanish from it.
      for (const hidden of ['.hidden.http', 'node_modules/x.http']) {
        await h.press('R', 'C-u');
        await h.type(hidden);
        await h.press('enter');
        await h.waitFor(() => status().includes(`${hidden}: the tree hides it`));
        expect(existsSync(join(dir.dir, 'made', hidden))).toBe(false);
        expect(existsSync(join(dir.dir, 'made/fresh-copy.http'))).toBe(true);
      }
      await h.press('R', 'C-u');
      await h.type('renamed.http');
      await h.press('enter');
      await h.waitFor(() => status().includes('renamed to made/renamed.http'));
      expect(existsSync(join(dir.dir, 'made/fresh-copy.http'))).toBe(false);
      // Delete: No keeps the file; Yes moves it to the trash, whole.
      const content = readFileSync(join(dir.dir, 'made/renamed.http'), 'utf8');
      await h.press('\u001b[3~');
      await h.waitFor('Delete made/renamed.http?');
      await h.press('enter');
      expect(existsSync(join(dir.dir, 'made/renamed.http'))).toBe(true);
      await h.press('\u001b[3~');
      await h.waitFor('Delete made/renamed.http?');
      await h.press('j', 'enter');
      await h.waitFor(() => status().includes('moved made/renamed.http to'));
      expect(existsSync(join(dir.dir, 'made/renamed.http'))).toBe(false);
      const trash = join(state.dir, 'trash');
      const [trashed] = readdirSync(trash);
      expect(readFileSync(join(trash, trashed ?? ''), 'utf8')).toBe(content);
      await h.waitFor((screen) => !screen.split('\n').some((row) => row.slice(0, 27).includes('renamed'))); // gone from the tree
    } finally {
      dir.cleanup();
      state.cleanup();
    }
  });
});

describe('the editor command', () => {
  const file = '/p/api.http';
  it('opens at the line in the way each editor takes it', () => {
    expect(editorCommand({}, file, 7)).toEqual({ command: 'vi', args: ['+7', file] });
    expect(editorCommand({ EDITOR: 'nvim' }, file, 7)).toEqual({ command: 'nvim', args: ['+7', file] });
    expect(editorCommand({ EDITOR: 'nano', VISUAL: 'emacs -nw' }, file, 3)).toEqual({ command: 'emacs', args: ['-nw', '+3', file] });
    expect(editorCommand({ EDITOR: 'code -w' }, file, 12)).toEqual({ command: 'code', args: ['-w', '-g', `${file}:12`] });
    expect(editorCommand({ EDITOR: '/usr/local/bin/subl' }, file, 2)).toEqual({ command: '/usr/local/bin/subl', args: [`${file}:2`] });
    expect(editorCommand({ EDITOR: 'ed' }, file, 2)).toEqual({ command: 'ed', args: [file] });
    expect(editorCommand({ EDITOR: '"/opt/my editor/bin/vim"' }, file, 2)).toEqual({ command: '/opt/my editor/bin/vim', args: ['+2', file] });
  });
});

describe('r: reload', () => {
  it('in a project with no profiles file, reloads without a warning; a .profiles.json written meanwhile is read', async () => {
    const dir = tempDir('reqflow-tui-reload-');
    try {
      dir.write('one.http', '### one\nGET http://127.0.0.1:1/one\n');
      const h = await startHarness({ dir: dir.dir, env: isolatedEnv(dir.dir) });
      await h.waitFor('one');
      await h.press('r');
      // `reloading…` while it reads, then the problems found, if any.
      await h.waitFor(() => !h.status().includes('reloading'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(h.status()).not.toContain('unknown profile');
      dir.write('.profiles.json', JSON.stringify([{ name: 'staging', variables: {} }]));
      await h.press('r');
      await h.waitFor('staging');
      expect(h.status()).not.toContain('unknown profile');
    } finally {
      dir.cleanup();
    }
  });
});
