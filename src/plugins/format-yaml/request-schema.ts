/**
 * The YAML a request file is read with: js-yaml's core schema (null, true/false, numbers,
 * strings, lists, maps) and `<<` merges. Not its default schema's timestamps, which a body
 * would send as `2024-01-01T00:00:00.000Z` where the file says `2024-01-01` (a date stays the
 * text written), nor `!!binary`, `!!set`, `!!omap` and `!!pairs`, which have no JSON form: such
 * a tag is the file's error, naming its line, never a body sent as something else.
 */
import type { Schema, Type } from 'js-yaml';

type JsYaml = typeof import('js-yaml');

/** js-yaml's built-in types (`yaml.types`); @types/js-yaml does not declare them. */
const typesOf = (yaml: JsYaml): Record<'null' | 'bool' | 'int' | 'float' | 'merge', Type> => (yaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float' | 'merge', Type> }).types;

export function requestSchema(yaml: JsYaml): Schema {
  return yaml.CORE_SCHEMA.extend({ implicit: [typesOf(yaml).merge] });
}

/**
 * The same document with every plain scalar as its text — for the fields sent as text: a header
 * `X-Version: 1.10` or `X-Zip: 0755` goes out so, not as the number js-yaml reads (1.1, 755). The
 * request schema's types stay, only explicit: a scalar tagged `!!int` reads as it does there.
 */
export function writtenScalarsSchema(yaml: JsYaml): Schema {
  const types = typesOf(yaml);
  return yaml.FAILSAFE_SCHEMA.extend({ implicit: [types.merge], explicit: [types.null, types.bool, types.int, types.float] });
}
