/**
 * `reqflow import curl SOURCE`: curl command lines — as API docs print them, or as Chrome and
 * Firefox copy them ("Copy as cURL": `\` continuations, `$'…'` quoting) — to a `.http` file.
 * The shell words are split by `shlex` (POSIX rules, ANSI-C `$'…'` quoting included).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { split } from 'shlex';
import { UsageError } from '../../core/errors/index.js';
import type { Imported, ImportOptions } from '../model.js';
import { slug, UniqueNames } from '../names.js';
import { readSource } from '../source.js';
import { ImportVariables } from '../variables.js';
import { parseCurlCommands } from './curl-flags.js';
import { curlRequests } from './curl-request.js';

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A file of commands may carry shell comments (`# request-1`, as `--as curl` prints): a line
 * that starts with `#` outside any quote is dropped — one inside a quoted body is the body's.
 */
function withoutCommentLines(text: string): string {
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line) && closedQuotes(kept.join('\n'))) continue;
    kept.push(line);
  }
  return kept.join('\n');
}

/** Does the text so far end outside any quote (shlex splits it)? */
function closedQuotes(text: string): boolean {
  try {
    split(text);
    return true;
  } catch {
    return false;
  }
}

/** A request's name: `post-users` from `POST https://x/api/users?page=1`. */
function requestName(method: string, url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '');
  const last = path.split('/').filter(Boolean).at(-1) ?? '';
  return slug(`${method} ${last}`, method.toLowerCase());
}

export async function importCurl(source: string, options: ImportOptions): Promise<Imported> {
  const fromFile = source !== '-' && isFile(source);
  const label = source === '-' ? 'standard input' : fromFile ? source : 'the curl command';
  const text = (fromFile || source === '-' ? await readSource(source, options) : source).replace(/\r\n/g, '\n');
  if (/\^"/.test(text)) throw new UsageError(`${label}: this is a curl command for Windows cmd (^" quoting)`, { hint: 'copy it as cURL (bash) instead' });
  let words: string[];
  try {
    words = split(withoutCommentLines(text));
  } catch (error) {
    throw new UsageError(`${label}: not a shell command line: ${(error as Error).message}`, { hint: "quote the command for your shell: reqflow import curl 'curl …'" });
  }
  const { commands, dropped } = parseCurlCommands(words);
  if (commands.length === 0) throw new UsageError(`${label}: no curl command found`, { hint: 'the text should start with curl' });
  // `API_KEY=… curl …`: a shell variable's value is named, never shown (it is often a credential).
  const shownWords = dropped.slice(0, 5).map((word) => word.replace(/^([A-Za-z_][A-Za-z0-9_]*)=[^]+$/, '$1=…'));
  if (dropped.length > 0) options.warn(`not part of a curl command, not imported: ${shownWords.join(' ')}${dropped.length > 5 ? ' …' : ''}`);

  const variables = new ImportVariables();
  const names = new UniqueNames();
  const requests = commands.flatMap((command) => curlRequests(command, { cwd: options.cwd, maxBytes: options.maxBytes, variables, warn: options.warn }, (method, url) => names.take(requestName(method, url))));
  const stem = fromFile ? slug(basename(source, extname(source)), 'curl') : (requests[0]?.name ?? 'curl');
  return {
    files: [{ path: `${stem}.http`, header: [`Imported by reqflow import curl from ${source === '-' || fromFile ? label : 'a command line'}.`], requests }],
    variables,
    envName: options.envName ?? 'dev',
    extraFiles: [],
  };
}
