/**
 * Shell completion: `reqflow __complete SHELL …`, called on each TAB by the scripts of
 * `reqflow autocomplete SHELL` (completion-scripts.ts), prints the candidates for the word under
 * the cursor, one per line — commands, flags, `-o`'s values, request files and folders, and what
 * only reqflow can know: `--env` names from the environment files, `-p` profiles from the
 * `.profiles.json` that applies, `-n` request names of the file on the line.
 *
 * bin/run.cjs loads this module without oclif, whose start-up alone costs more than a TAB should
 * wait; each kind of value imports what it needs only when asked for. Errors print nothing: a
 * broken profiles file must not spill onto the command line being typed.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { bashQuote, bashWords, type Token } from './bash-words.js';
import { commandTable, findFlag, isTopic, type CommandInfo, type CommandTable, type FlagInfo } from './complete-commands.js';
import { expand, paths, type Candidate } from './complete-paths.js';
import { SHELLS, type Shell } from './completion-scripts.js';

/** What the word under the cursor is, once the line is read. */
type Slot = { kind: 'subcommand'; topic: string } | { kind: 'flag' } | { kind: 'value'; flag: FlagInfo; prefix: string } | { kind: 'argument'; index: number };

/** The command line as completion sees it: which command, its flags' values, its arguments. */
interface Line {
  command: CommandInfo | undefined;
  slot: Slot;
  /** The word under the cursor, quotes removed (for a value: the part after `--flag=`). */
  typed: string;
  /** Flag name → the values given (booleans: `true`). */
  given: Map<string, string[]>;
  /** The arguments, the word under the cursor left out. */
  args: string[];
}

/** Commands whose arguments are request files or folders (`reqflow FILE` is `run`). */
const REQUEST_ARGUMENTS: Record<string, 'one' | 'many'> = { run: 'one', test: 'many', tui: 'one' };

/**
 * Reads the words after `reqflow` (the one at `index` is under the cursor): the command they
 * name, where `reqflow FILE …` and `reqflow -e x=y FILE` are `run`; the flags and arguments
 * given; and what the word under the cursor is.
 */
function readLine(table: CommandTable, words: readonly string[], index: number): Line {
  let commandWords = 0;
  let command: CommandInfo | undefined;
  for (let n = 1; n <= index; n++) {
    const id = words.slice(0, n).join(':');
    const found = table.commands.get(id);
    if (found) {
      command = found;
      commandWords = n;
    } else if (!isTopic(table, id)) break;
  }
  const typed = words[index] ?? '';
  const given = new Map<string, string[]>();
  const args: string[] = [];
  const topic = words.slice(0, index).join(':');
  // Still naming the command: `reqflow <TAB>`, `reqflow oauth <TAB>` (a topic, or a command that is one too).
  const naming = !typed.startsWith('-') && (index === 0 || isTopic(table, topic));
  if (!command && !naming) command = table.commands.get('run');
  let slot: Slot | undefined = naming ? { kind: 'subcommand', topic } : undefined;
  let awaiting: FlagInfo | undefined;
  let flagsEnded = false;
  const record = (flag: FlagInfo, value: string): void => void given.set(flag.name, [...(given.get(flag.name) ?? []), value]);
  for (let i = commandWords; i < words.length; i++) {
    const word = words[i] as string;
    if (i === index) {
      if (awaiting) slot = { kind: 'value', flag: awaiting, prefix: '' };
      else if (!flagsEnded && word.startsWith('--') && word.includes('=')) {
        const name = word.slice(0, word.indexOf('='));
        const found = findFlag(command, name);
        if (found?.flag.type === 'option') slot = { kind: 'value', flag: found.flag, prefix: `${name}=` };
      } else if (!flagsEnded && word.startsWith('-')) slot ??= { kind: 'flag' };
      slot ??= { kind: 'argument', index: args.length };
      awaiting = undefined;
      continue;
    }
    if (awaiting) {
      record(awaiting, word);
      awaiting = undefined;
    } else if (!flagsEnded && word === '--') flagsEnded = true;
    else if (!flagsEnded && word.startsWith('-') && word !== '-') {
      const eq = word.startsWith('--') ? word.indexOf('=') : -1;
      const found = findFlag(command, eq > 0 ? word.slice(0, eq) : word);
      if (!found) continue; // an unknown flag: taken as one without a value
      if (found.flag.type === 'boolean') record(found.flag, 'true');
      else if (eq > 0) record(found.flag, word.slice(eq + 1));
      else if (found.attached !== undefined) record(found.flag, found.attached);
      else awaiting = found.flag;
    } else args.push(word);
  }
  const resolved = slot ?? { kind: 'argument', index: args.length };
  return { command, slot: resolved, typed: resolved.kind === 'value' ? typed.slice(resolved.prefix.length) : typed, given, args };
}

/** The folder the line's request file (or folder) is in — where `run` looks for environment and profiles files — else `cwd`. */
function requestFolder(line: Line, cwd: string): string {
  for (const arg of line.args) {
    const path = expand(arg, cwd);
    const info = statSync(path, { throwIfNoEntry: false });
    if (info?.isDirectory()) return path;
    if (info?.isFile()) return dirname(path);
  }
  return cwd;
}

async function profileNames(line: Line, cwd: string): Promise<Candidate[]> {
  const { findProfilesFile, loadProfiles } = await import('../core/profiles.js');
  const given = line.given.get('profiles')?.at(-1);
  const file = given !== undefined ? expand(given, cwd) : await findProfilesFile(requestFolder(line, cwd), cwd);
  if (!file) return [];
  return (await loadProfiles(file)).profiles.map((profile) => ({ value: profile.name }));
}

async function environmentNames(line: Line, cwd: string): Promise<Candidate[]> {
  const { environmentNames: names } = await import('../core/environment-files.js');
  return (await names(requestFolder(line, cwd))).map((name) => ({ value: name }));
}

/** The names `-n` accepts: the requests of the file on the line, parsed as `run` parses it. */
async function requestNames(line: Line, cwd: string): Promise<Candidate[]> {
  const file = line.args[0];
  if (file === undefined || !statSync(expand(file, cwd), { throwIfNoEntry: false })?.isFile()) return [];
  const [{ parseRequestFile }, { PluginRegistry }, { BUILTIN_PLUGINS }] = await Promise.all([import('../pipeline/parse-file.js'), import('../core/registry.js'), import('../pipeline/builtins.js')]);
  const specs = await parseRequestFile(expand(file, cwd), new PluginRegistry(BUILTIN_PLUGINS));
  return specs.map((spec) => ({ value: spec.name, description: `${spec.method} ${spec.url}` }));
}

/** The first sentence of a help text, short enough for a completion menu (oclif's `<%= config.bin %>` filled in). */
function brief(text: string | undefined): string | undefined {
  const first = text?.replace(/<%=\s*config\.bin\s*%>/g, 'reqflow').split('\n')[0]?.split(/(?<=\.)\s+(?=[A-Z])/)[0]?.replace(/\.$/, '');
  return first ? (first.length > 80 ? `${first.slice(0, 79)}…` : first) : undefined;
}

function withBrief(value: string, text: string | undefined): Candidate {
  const description = brief(text);
  return description ? { value, description } : { value };
}

function subcommands(table: CommandTable, topic: string): Candidate[] {
  const depth = topic === '' ? 0 : topic.split(':').length;
  const names = new Map<string, Candidate>();
  for (const [id, command] of table.commands) {
    if (topic !== '' && !id.startsWith(`${topic}:`)) continue;
    const name = id.split(':')[depth];
    if (name === undefined) continue;
    const full = id.split(':').slice(0, depth + 1).join(':');
    if (!names.has(name) || full === id) names.set(name, withBrief(name, full === id ? (command.summary ?? command.description) : table.topics.get(full)));
  }
  return [...names.values()];
}

function flags(line: Line, typed: string): Candidate[] {
  const found: Candidate[] = [];
  for (const flag of Object.values(line.command?.flags ?? {})) {
    if (flag.hidden || (line.given.has(flag.name) && !flag.multiple)) continue;
    const text = flag.summary ?? flag.description;
    found.push(withBrief(`--${flag.name}`, text));
    if (flag.allowNo) found.push(withBrief(`--no-${flag.name}`, text));
    // `-p` typed in full: offered as itself, so it completes with a space
    if (flag.char && typed === `-${flag.char}`) found.push(withBrief(typed, text));
  }
  found.push({ value: '--help', description: 'Show help for the command' });
  return found;
}

async function values(line: Line, flag: FlagInfo, cwd: string): Promise<Candidate[]> {
  if (flag.options) return flag.options.map((value) => ({ value }));
  if (flag.name === 'profile') return profileNames(line, cwd);
  if (flag.name === 'env') return environmentNames(line, cwd);
  if (flag.name === 'name' && line.command && REQUEST_ARGUMENTS[line.command.id]) return requestNames(line, cwd);
  if (flag.helpValue === 'PATH') return paths(line.typed, cwd, 'any');
  return [];
}

async function argumentValues(line: Line, index: number, cwd: string): Promise<Candidate[]> {
  const takes = REQUEST_ARGUMENTS[line.command?.id ?? ''];
  if (takes) return takes === 'many' || index === 0 ? paths(line.typed, cwd, 'requests') : [];
  const options = Object.values(line.command?.args ?? {})[index]?.options;
  return options ? options.map((value) => ({ value })) : [];
}

/** The candidates for word `index` of `words` (the words after `reqflow`): those that go on from what is typed. */
async function candidates(words: readonly string[], index: number, cwd: string): Promise<Candidate[]> {
  const table = await commandTable();
  const line = readLine(table, index < words.length ? words : [...words, ...Array<string>(index - words.length + 1).fill('')], index);
  const { slot } = line;
  let found: Candidate[];
  if (slot.kind === 'subcommand') {
    // `reqflow FILE` runs it: files beside the commands
    found = [...subcommands(table, slot.topic), ...(slot.topic === '' ? await paths(line.typed, cwd, 'requests') : [])];
  } else if (slot.kind === 'flag') found = flags(line, line.typed);
  else if (slot.kind === 'value') found = await values(line, slot.flag, cwd);
  else found = await argumentValues(line, slot.index, cwd);
  const prefix = slot.kind === 'value' ? slot.prefix : '';
  return found.filter((candidate) => candidate.value.startsWith(line.typed)).map((candidate) => ({ ...candidate, value: `${prefix}${candidate.value}` }));
}

/**
 * bash: `line` up to the cursor (`point` counts bytes) is split as bash splits it. bash replaces
 * only the end of the word under the cursor — after its last COMP_WORDBREAKS character (`=` of
 * `--env=de`) or its open quote — so each answer is cut to that end, and quoted as it goes there.
 */
async function bashCandidates(point: number, line: string, wordbreaks: string, cwd: string): Promise<string[]> {
  const bytes = Buffer.from(line, 'utf8');
  const before = bytes.subarray(0, point).toString('utf8');
  const tokens = bashWords(before);
  const current = tokens.at(-1)?.end === before.length ? (tokens.pop() as Token) : { value: '', start: before.length, end: before.length };
  const after = bashWords(bytes.subarray(point).toString('utf8'), before.length);
  if (current.end === before.length && after[0]?.start === before.length) after.shift(); // the rest of the word under the cursor
  const words = [...tokens.slice(1).map((t) => t.value), current.value, ...after.map((t) => t.value)];
  // How much of the typed word (quotes removed) bash keeps, and the quote left open.
  let typed = 0;
  let kept = 0;
  let quote: string | undefined;
  const raw = before.slice(current.start);
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else {
        if (quote === '"' && c === '\\' && '$`"\\'.includes(raw[i + 1] ?? ' ')) i++;
        typed++;
      }
    } else if (c === '"' || c === "'") {
      quote = c;
      kept = typed;
    } else {
      if (c === '\\') i++;
      typed++;
      if (c !== '\\' && wordbreaks.includes(c)) kept = typed;
    }
  }
  return (await candidates(words, tokens.length - 1, cwd)).map(({ value }) => bashQuote(value.slice(kept), quote));
}

/**
 * `reqflow __complete SHELL …`, as the scripts call it: bash passes `POINT LINE WORDBREAKS`;
 * zsh and fish `INDEX WORD…` (the words after `reqflow`, the one under the cursor at INDEX) and
 * read `value<TAB>description` lines.
 */
export async function runCompletion(argv: readonly string[], cwd = process.cwd()): Promise<number> {
  const [shell, position, ...rest] = argv;
  const at = Number(position);
  if (!SHELLS.includes(shell as Shell) || !Number.isInteger(at) || at < 0) return 2;
  try {
    const lines =
      shell === 'bash'
        ? await bashCandidates(at, rest[0] ?? '', rest[1] ?? '', cwd)
        : (await candidates(rest, at, cwd)).map(({ value, description }) => (description ? `${value}\t${description}` : value));
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
  } catch {
    // nothing to offer: never an error on the line being typed
  }
  return 0;
}
