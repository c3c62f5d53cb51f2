/**
 * How much of what a script prints reaches reqflow's main thread (docs/security.md): each log
 * line, test name or message and error is cut at {@link LINE_CHARS}, and all a sandbox prints at
 * {@link TOTAL_CHARS}. Cut in the worker, before the text is posted: a script could otherwise
 * hand the main thread a string as large as its own heap (`'abcdef'.repeat(10_000_000)`), past
 * the script's memory limit and into the masking of secret pieces.
 */

/** One line: far more than a log line or a message is read for. */
const LINE_CHARS = 16 * 1024;
/** A sandbox's whole output (log lines, test names and messages). */
const TOTAL_CHARS = 1024 * 1024;
/** What a test's name or message keeps once the total is spent: the test still counts. */
const SPENT_CHARS = 80;

/** `text` cut at `max` characters, saying how many more there were and which limit cut them. */
export function cutPrinted(text: string, max = LINE_CHARS): string {
  if (text.length <= max) return text;
  // Below a line's limit, `max` is what the sandbox's total has left.
  const limit = max < LINE_CHARS ? `${TOTAL_CHARS} characters in all` : `${LINE_CHARS} a line`;
  return `${text.slice(0, max)}… (${text.length - max} more characters cut: a script prints at most ${limit})`;
}

/**
 * A sandbox's bridge calls with their printed text cut: undefined for a log line past the total
 * (dropped; the first says so). Other calls (a global's value) pass whole.
 */
export function printedBudget(): (op: string, args: ReadonlyArray<string | undefined>) => ReadonlyArray<string | undefined> | undefined {
  let left = TOTAL_CHARS;
  let spent = false;
  const cut = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    const shown = cutPrinted(text, Math.min(LINE_CHARS, Math.max(left, SPENT_CHARS)));
    left = Math.max(0, left - shown.length);
    return shown;
  };
  return (op, args) => {
    if (op === 'test') return [cut(args[0]), args[1], cut(args[2])];
    if (op !== 'log') return args;
    if (left > 0) return [cut(args[0])];
    if (spent) return undefined;
    spent = true;
    return [`(the rest of this script's log is cut: a script prints at most ${TOTAL_CHARS} characters)`];
  };
}
