import { basename } from 'node:path';
import { split } from 'shlex';

/** Editors that open a file at a line with `+LINE FILE`. */
const PLUS_LINE = new Set(['vi', 'vim', 'nvim', 'gvim', 'view', 'nano', 'emacs', 'emacsclient', 'micro', 'kak', 'joe', 'mg', 'ne']);
/** Editors that take `-g FILE:LINE` (VS Code and its builds). */
const GOTO_FLAG = new Set(['code', 'code-insiders', 'codium', 'cursor', 'windsurf']);
/** Editors that take `FILE:LINE`. */
const COLON_LINE = new Set(['subl', 'hx', 'helix', 'zed']);

/**
 * The command that opens `file` at `line` in the user's editor: `$VISUAL`, else `$EDITOR`
 * (either may hold arguments: `code -w`), else `vi`.
 */
export function editorCommand(env: NodeJS.ProcessEnv, file: string, line: number): { command: string; args: string[] } {
  const configured = (env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi') as string;
  let words: string[];
  try {
    words = split(configured);
  } catch {
    words = [configured]; // unbalanced quotes: the whole value is the program
  }
  const [command = 'vi', ...args] = words;
  const name = basename(command).replace(/\.exe$/i, '');
  if (PLUS_LINE.has(name)) return { command, args: [...args, `+${line}`, file] };
  if (GOTO_FLAG.has(name)) return { command, args: [...args, '-g', `${file}:${line}`] };
  if (COLON_LINE.has(name)) return { command, args: [...args, `${file}:${line}`] };
  return { command, args: [...args, file] };
}
