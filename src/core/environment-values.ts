/**
 * An environment file's values as variables (docs/environments.md, "Objects and arrays"): text,
 * numbers and booleans as text; an object or array is read by dotted names (`{{base.url}}`,
 * `{{plans.addons[0]}}`: JetBrains, kulala, resterm, httpyac) and, as a whole, is JSON text
 * where httpyac (the only tool that defines it) reads the file, else refused where a request
 * uses it — never sent as something the file's own tool would not send. resterm's `env:NAME`
 * values are the OS variable's.
 */

/** Where a value that has no text form is defined, for the error of the request that uses it. */
export interface UnusableValue {
  /** `an object`, `an array`, `null`, or resterm's `env:NAME` naming an OS variable that is not set. */
  what: string;
  /** `dev.user` */
  where: string;
  file: string;
  /** What to do instead, where it is not "use one of its values". */
  hint?: string;
}

export interface EnvironmentValues {
  vars: Record<string, string>;
  unusable: Record<string, UnusableValue>;
}

export const emptyValues = (): EnvironmentValues => ({ vars: {}, unusable: {} });

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

/** `name` = `value` into `out`, objects and arrays also as their dotted names. */
export function flattenValue(name: string, where: string, value: unknown, options: FlattenOptions, out: EnvironmentValues): void {
  if (typeof value === 'string') {
    const reference = options.osVariable ? OS_REFERENCE.exec(value) : null;
    if (reference) osValue(name, where, reference[1] ?? '', options, out);
    else out.vars[name] = value;
  } else if (typeof value === 'number' || typeof value === 'boolean') out.vars[name] = String(value);
  else if (value === null || typeof value === 'object') {
    if (options.asJson) out.vars[name] = JSON.stringify(value);
    else out.unusable[name] = { what: value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object', where, file: options.file };
    if (Array.isArray(value)) value.forEach((item, index) => flattenValue(`${name}[${index}]`, `${where}[${index}]`, item, options, out));
    else if (value !== null) for (const [key, item] of Object.entries(value)) flattenValue(`${name}.${key}`, `${where}.${key}`, item, options, out);
  }
}
