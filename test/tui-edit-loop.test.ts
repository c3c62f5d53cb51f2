/**
 * The edit loop, headless: `E` opens the selected request in $EDITOR at its line (here a script
 * standing in for an editor: it records its arguments and edits the file), the files reload
 * after it; a request appended to a file from outside appears by itself, the selection kept.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, chmodSync, readFileSync } from 'node:fs';
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
    const screen = await h.waitFor('appended later', 2000);
    expect(screen).toContain('Request · first');
    workspace.write('more/new.http', '### in a new file\nGET http://127.0.0.1:1/new\n');
    await h.waitFor('in a new file', 2000);
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
