/**
 * An environment file's values as variables (docs/environments.md, "Objects and arrays"): text,
 * numbers and booleans as text; an object or array is read by dotted names (`{{base.url}}`,
 * `{{plans.addons[0]}}`: JetBrains, kulala, resterm, httpyac) and, as a whole, is JSON text
 * where httpyac (the only tool that defines it) reads the file, else refused where a request
 * uses it — never sent as something the file's own tool would not send.
 */

/** Where a value that has no text form is defined, for the error of the request that uses it. */
export interface UnusableValue {
  what: 'an object' | 'an array' | 'null';
  /** `dev.user` */
  where: string;
  file: string;
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
}

/** `name` = `value` into `out`, objects and arrays also as their dotted names. */
export function flattenValue(name: string, where: string, value: unknown, options: FlattenOptions, out: EnvironmentValues): void {
  if (typeof value === 'string') out.vars[name] = value;
  else if (typeof value === 'number' || typeof value === 'boolean') out.vars[name] = String(value);
  else if (value === null || typeof value === 'object') {
    if (options.asJson) out.vars[name] = JSON.stringify(value);
    else out.unusable[name] = { what: value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object', where, file: options.file };
    if (Array.isArray(value)) value.forEach((item, index) => flattenValue(`${name}[${index}]`, `${where}[${index}]`, item, options, out));
    else if (value !== null) for (const [key, item] of Object.entries(value)) flattenValue(`${name}.${key}`, `${where}.${key}`, item, options, out);
  }
}
