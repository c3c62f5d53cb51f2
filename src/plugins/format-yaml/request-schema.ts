/**
 * The YAML a request file is read with: js-yaml's core schema (null, true/false, numbers,
 * strings, lists, maps) and `<<` merges. Not its default schema's timestamps, which a body
 * would send as `2024-01-01T00:00:00.000Z` where the file says `2024-01-01` (a date stays the
 * text written), nor `!!binary`, `!!set`, `!!omap` and `!!pairs`, which have no JSON form: such
 * a tag is the file's error, naming its line, never a body sent as something else.
 */
import type { Schema, Type } from 'js-yaml';

type JsYaml = typeof import('js-yaml');

export function requestSchema(yaml: JsYaml): Schema {
  // js-yaml exports its built-in types (`yaml.types`); @types/js-yaml does not declare them.
  const { types } = yaml as unknown as { types: Record<'merge', Type> };
  return yaml.CORE_SCHEMA.extend({ implicit: [types.merge] });
}
