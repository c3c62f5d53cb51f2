/**
 * An environment file's values as variables (docs/environments.md, "Objects and arrays"): text,
 * numbers and booleans as text; an object or array is read by dotted names (`{{base.url}}`,
 * `{{plans.addons[0]}}`: JetBrains, kulala, resterm, httpyac) and, as a whole, is JSON text
 * where httpyac (the only tool that defines it) reads the file, else refused where a request
 * uses it — never sent as something the file's own tool would not send. resterm's `env:NAME`
 * values are the OS variable's.
 */
import { UsageError } from './errors/index.js';
import { isLosslessNumber, stringifyJsonValue } from './json-exact.js';

/** Where a value that has no text form is defined, for the error of the request that uses it. */
export interface UnusableValue {
  /** `an object`, `an array`, `null`, or resterm's `env:NAME` naming an OS variable that is not set. */
  what: string;
  /** `dev.user` */
  where: string;
  file: string;
  /** What to do instead, where it is not "use one of its values". */
  hint?: string;
  /** A variable cycle (`$shared a` naming itself): exit 3, as other cycles are, not 2. */
  cycle?: boolean;
}

export interface EnvironmentValues {
  vars: Record<string, string>;
  unusable: Record<string, UnusableValue>;
}

/** Without a prototype: a value named `__proto__` or `constructor` is kept like any other (docs/variables.md). */
export const emptyValues = (): EnvironmentValues => ({ vars: Object.create(null) as Record<string, string>, unusable: Object.create(null) as Record<string, UnusableValue> });

/** Later values win: a name set as text is no longer unusable, and the other way round. */
export function assignValues(into: EnvironmentValues, from: EnvironmentValues): EnvironmentValues {
  for (const [name, value] of Object.entries(from.vars)) {
    into.vars[name] = value;
    delete into.unusable[name];
  }
  for (const [name, value] of Object.entries(from.unusable)) {
    into.unusable[name] = value;
    delete into.vars[name];
  }
  return into;
}

export interface FlattenOptions {
  file: string;
  /**
   * The characters of names and values that flattening one file may still produce (see
   * {@link flattenBudget}): an object's dotted names repeat its key in every name below it, so a
   * file of 1 MiB (a key of 100 KB over 100,000 values) would otherwise make gigabytes of names.
   */
  budget?: { chars: number };
  /** httpyac: an object or array as a whole is its JSON text, `null` is "null" (its `toString`). */
  asJson: boolean;
  /** resterm: a value `env:NAME` is the OS variable NAME (else NAME in capitals); undefined when neither is set. */
  osVariable?: (name: string) => string | undefined;
}

/** resterm's `env:NAME` (its docs/resterm.md, "Values from OS environment variables"). */
const OS_REFERENCE = /^env:(.*)$/s;
const OS_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A resterm `env:NAME` value: the OS variable, or unusable (not set, or a form reqflow does not read). */
function osValue(name: string, where: string, reference: string, options: FlattenOptions, out: EnvironmentValues): void {
  const plain = OS_NAME.test(reference);
  const value = plain ? options.osVariable?.(reference) : undefined;
  if (value !== undefined) out.vars[name] = value;
  else if (plain) out.unusable[name] = { what: `env:${reference}, an OS variable that is not set`, where, file: options.file, hint: `export ${reference}=… before running, or set it with -e ${name}=value` };
  else out.unusable[name] = { what: `env:${reference}, an OS variable reference reqflow does not read`, where, file: options.file, hint: `write env:NAME with a plain name, or set it with -e ${name}=value` };
}

/** What one file's values may come to as names and values: 64 MiB, four times the largest file read. */
const FLATTEN_LIMIT = 64 * 1024 * 1024;

/** A fresh budget for flattening one file's values ({@link FlattenOptions.budget}). */
export const flattenBudget = (): { chars: number } => ({ chars: FLATTEN_LIMIT });

/**
 * The longest name a file may give a value, dotted path included. V8 hashes a longer string by
 * its length alone, so names of 100 KB (a long key over many values) all collide and storing
 * each compares it with every other: minutes for a file of 1 MiB.
 */
const MAX_NAME = 4096;

/** Counts `name` = `value` against the budget: exit 2 naming the file past it, or past {@link MAX_NAME}, before the name is stored. */
function spend(options: FlattenOptions, name: string, value: string): void {
  if (!options.budget) return;
  if (name.length > MAX_NAME) throw new UsageError(`${options.file}: a value's name${name.includes('.') || name.includes('[') ? ', with the keys above it,' : ''} is longer than ${MAX_NAME} characters: ${JSON.stringify(name.slice(0, 40))}…`, { hint: 'an environment file holds names and values, not data' });
  options.budget.chars -= name.length + value.length;
  if (options.budget.chars < 0) {
    throw new UsageError(`${options.file}: its values, with objects read by dotted names (a.b.c), come to more than ${FLATTEN_LIMIT / 1024 / 1024} MiB of names and text`, { hint: 'an environment file holds names and values, not data' });
  }
}

/** `name` = `value` into `out`, objects and arrays also as their dotted names. */
export function flattenValue(name: string, where: string, value: unknown, options: FlattenOptions, out: EnvironmentValues): void {
  spend(options, name, typeof value === 'string' ? value : '');
  if (typeof value === 'string') {
    const reference = options.osVariable ? OS_REFERENCE.exec(value) : null;
    if (reference) osValue(name, where, reference[1] ?? '', options, out);
    else out.vars[name] = value;
  } else if (typeof value === 'number' || typeof value === 'boolean' || isLosslessNumber(value)) out.vars[name] = String(value);
  else if (value === null || typeof value === 'object') {
    if (options.asJson) {
      const text = stringifyJsonValue(value) ?? 'null';
      spend(options, '', text);
      out.vars[name] = text;
    }
    else out.unusable[name] = { what: value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object', where, file: options.file };
    if (Array.isArray(value)) value.forEach((item, index) => flattenValue(`${name}[${index}]`, `${where}[${index}]`, item, options, out));
    else if (value !== null) for (const [key, item] of Object.entries(value)) flattenValue(`${name}.${key}`, `${where}.${key}`, item, options, out);
  }
}
