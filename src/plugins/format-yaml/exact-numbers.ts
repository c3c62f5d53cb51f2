/**
 * A YAML request file's numbers as written, for the bodies sent as JSON: js-yaml reads every
 * number as a double, so `id: 12345678901234567890` would go out as `12345678901234567000` and
 * `1e400` as `null`. Read again, only for a file that holds such a number, with js-yaml's own
 * schema where an integer or float a double cannot hold keeps its text (json-exact.ts).
 */
import type { Schema, Type } from 'js-yaml';
import { numberAsWritten } from '../../core/json-exact.js';

type JsYaml = typeof import('js-yaml');

/** A JSON number token (YAML's decimal forms that JSON writes the same). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** What this reading needs of js-yaml's built-in int and float types (only loading, never dumping). */
interface ScalarType {
  tag: string;
  resolve(data: string): boolean;
  construct(data: string): unknown;
}

/** The request schema (request-schema.ts), its integers and floats read as written where a double cannot hold them. */
export function exactNumbersSchema(yaml: JsYaml): Schema {
  // js-yaml exports its built-in types (`yaml.types`); @types/js-yaml does not declare them.
  const { types } = yaml as unknown as { types: Record<'null' | 'bool' | 'merge' | 'str' | 'seq' | 'map', Type> & Record<'int' | 'float', ScalarType> };
  const asWritten = (base: ScalarType): Type =>
    new yaml.Type(base.tag, {
      kind: 'scalar',
      // js-yaml reads a float a double cannot hold (`1e400`) as a string; YAML's core schema, and JSON, a number.
      resolve: (data: unknown) => typeof data === 'string' && (base.resolve(data) || (base === types.float && JSON_NUMBER.test(data.replace(/^\+/, '')))),
      construct: (data: string) => {
        const text = data.replace(/^\+/, '');
        if (JSON_NUMBER.test(text)) return numberAsWritten(text);
        const value = base.construct(data);
        // 0x…, 0o…, 0b… past 2^53: its decimal digits, from the text (BigInt takes no sign with a prefix).
        const radix = /^([-+]?)(0[xob][0-9a-f]+)$/i.exec(data);
        if (!radix || Number.isSafeInteger(value)) return value;
        return numberAsWritten(`${radix[1] === '-' ? '-' : ''}${BigInt(radix[2] as string).toString()}`);
      },
    });
  // The request schema's types (request-schema.ts), its numbers as written.
  return new yaml.Schema({
    implicit: [types.null, types.bool, asWritten(types.int), asWritten(types.float), types.merge],
    explicit: [types.str, types.seq, types.map],
  });
}
