/**
 * The library's JMESPath functions that can make a string of any length in one step, or run long
 * on one, in bounded forms (core/jmespath-interpreter.ts installs them; the rest of a step's
 * work is bounded by the size of its arguments):
 *
 * - `pad_left`/`pad_right` make a string as wide as asked (`pad_right(name, \`500000000\`)`),
 *   `join` and `replace` one as long as their glue or replacement times the pieces: each checks
 *   the length it will make with the meter first.
 * - `replace(s, old, new, count)` replaced the first occurrence `count` times over, even when
 *   none was left: `count` 10^9 was 10^9 passes over the string. It stops when a pass changes
 *   nothing (the passes after it would not either), each pass a step of the meter's.
 * - `trim`, `trim_left`, `trim_right` built a regular expression quadratic on a run of the
 *   characters they trim (200 kB of spaces took ~40 s): a scan from each end instead, with the
 *   same characters — the library's default set (`\s` and U+0085), else those of `chars`.
 */
/** What the functions ask of a search's meter (core/jmespath-interpreter.ts): a step, and room for a value of a size. */
interface Budget {
  step(): void;
  room(size: number): void;
}

type JmesFunction = (args: unknown[]) => unknown;

/** The characters `trim` takes away by default (the library's `[\s\x85]`). */
const WHITESPACE = /[\s\x85]/;

/** `subject` without the characters of `chars` (else whitespace) at its start, its end or both. */
function trimmed(subject: string, chars: unknown, ends: 'start' | 'end' | 'both'): string {
  const set = typeof chars === 'string' && chars !== '' ? chars : undefined;
  const trims = (unit: string): boolean => (set === undefined ? WHITESPACE.test(unit) : set.includes(unit));
  let start = 0;
  let end = subject.length;
  if (ends !== 'end') while (start < end && trims(subject[start] as string)) start++;
  if (ends !== 'start') while (end > start && trims(subject[end - 1] as string)) end--;
  return subject.slice(start, end);
}

/** How many times `part` (not empty) occurs in `text`, without overlaps. */
function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The most one `String.prototype.replace(old, by)` can make of `text`: each `$&`, `` $` `` or `$'` in `by` may add `text` again. */
function replacedAtMost(text: string, by: string): number {
  return text.length + by.length + (by.includes('$') ? Math.floor(by.length / 2) * text.length : 0);
}

/** The bounded forms, by name; `library` gives the library's own form of a function they call after checking. */
export function boundedFunctions(meter: Budget, library: (name: string) => JmesFunction): Record<string, JmesFunction> {
  const padded = (name: string): JmesFunction => (args) => {
    const [subject, width] = args;
    // The library pads an empty string to an empty string.
    if (typeof subject === 'string' && subject !== '' && typeof width === 'number') meter.room(Math.max(subject.length, width) + 1);
    return library(name)(args);
  };
  return {
    pad_left: padded('pad_left'),
    pad_right: padded('pad_right'),
    join: (args) => {
      const [glue, list] = args;
      if (typeof glue === 'string' && Array.isArray(list)) {
        let length = Math.max(0, list.length - 1) * glue.length;
        for (const item of list as unknown[]) length += typeof item === 'string' ? item.length : 0;
        meter.room(length + 1);
      }
      return library('join')(args);
    },
    replace: (args) => {
      const [subject, old, by, count] = args;
      if (typeof subject !== 'string' || typeof old !== 'string' || typeof by !== 'string') return library('replace')(args);
      if (count === undefined || count === null) {
        // The library splits at `old` and joins with `by`: the length is known before.
        const gaps = old === '' ? Math.max(0, subject.length - 1) : occurrences(subject, old);
        meter.room(subject.length + gaps * (by.length - old.length) + 1);
        return library('replace')(args);
      }
      if (typeof count !== 'number' || !Number.isInteger(count) || count <= 0) return library('replace')(args);
      let text = subject;
      for (let pass = 0; pass < count; pass++) {
        meter.step();
        meter.room(replacedAtMost(text, by) + 1);
        const next = text.replace(old, by); // the library's pass, `$&` and all
        if (next === text) break;
        text = next;
      }
      return text;
    },
    trim: ([subject, chars]) => trimmed(subject as string, chars, 'both'),
    trim_left: ([subject, chars]) => trimmed(subject as string, chars, 'start'),
    trim_right: ([subject, chars]) => trimmed(subject as string, chars, 'end'),
  };
}
