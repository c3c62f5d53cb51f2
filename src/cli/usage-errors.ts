/**
 * Command-line mistakes that have a likely fix, said the same way by the fast path (no oclif)
 * and by the oclif commands: an unknown flag or command with the one meant, a URL given where a
 * request file goes.
 */
import { UsageError } from '../core/errors/index.js';
import { displayUrl } from '../core/mask.js';
import { isStandardMethod } from '../core/methods.js';
import { shellWord } from '../core/shell.js';
import { closestName } from '../core/suggest.js';

const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;

export function isUrl(arg: string | undefined): arg is string {
  return arg !== undefined && URL_START.test(arg);
}

/** `GET https://…` on the command line, as curl-like tools take it. */
export function isMethodAndUrl(first: string | undefined, second: string | undefined): boolean {
  return first !== undefined && isStandardMethod(first) && isUrl(second);
}

/** A URL (and maybe a method) where a request file goes: `reqflow send` is the command for it. */
export function notARequestFileError(url: string, method?: string): UsageError {
  const shown = displayUrl(url);
  return new UsageError(`reqflow runs request files, not URLs: ${method === undefined ? '' : `${method} `}${shown}`, {
    hint: `to send one request: reqflow send ${method === undefined ? '' : `${shellWord(method)} `}${shellWord(shown)}`,
  });
}

/** `see reqflow oauth login --help` (`command`: its words; empty: reqflow's own help). */
export function helpHint(command: string): string {
  return `see ${['reqflow', command].filter(Boolean).join(' ')} --help`;
}

/** `--evn`: exit 2 naming it, with the flag meant where one is close (`--env`). `known`: long names, without dashes. */
export function unknownFlagError(flag: string, known: Iterable<string>, command: string): UsageError {
  const name = /^--([^=]+)/.exec(flag)?.[1];
  const guess = name === undefined ? undefined : closestName(name, known);
  const help = helpHint(command);
  return new UsageError(`unknown flag '${flag.replace(/=.*$/s, '')}'`, { hint: guess === undefined ? help : `did you mean --${guess}? (${help})` });
}

/**
 * A command no plugin provides: exit 2, with the command meant where one is close. `words`: the
 * command as typed so far (`oauth logni`); `siblings`: the commands beside the last word.
 */
export function unknownCommandError(words: readonly string[], siblings: Iterable<string>): UsageError {
  const names = [...new Set(siblings)].sort();
  const guess = closestName(words.at(-1) ?? '', names);
  const prefix = ['reqflow', ...words.slice(0, -1)].join(' ');
  const hint =
    guess !== undefined
      ? `did you mean ${prefix} ${guess}?`
      : words.length > 1
        ? `the commands of ${prefix} are ${names.join(', ')}`
        : 'see reqflow --help for the commands; reqflow FILE runs a request file, reqflow DIR opens the UI over a folder';
  return new UsageError(`unknown command "${words.join(' ')}"`, { hint });
}
