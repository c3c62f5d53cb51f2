/**
 * Example values: the spec's own examples first, else one made from the schema by
 * `openapi-sampler` (the sampler Redoc uses: formats, enums, allOf/oneOf, XML). Their numbers
 * are the spec's text where a double would change it (`1.10`, 64-bit ids: schema-numbers.ts),
 * and are written so.
 */
import { sample } from 'openapi-sampler';
import { isJsonContentType, isXmlContentType } from '../../core/content-type.js';
import { isLosslessNumber, stringifyJsonValue } from '../../core/json-exact.js';
import { formBody, MULTIPART_BOUNDARY } from '../form.js';
import { EXAMPLE_BUDGET, exampleDepth } from './example-budget.js';
import type { ImportedBody, MultipartPart } from '../model.js';
import { asRecord } from '../source.js';
import type { RequestBody, Schema } from './operations.js';
import { numbersAsText } from './schema-numbers.js';

/** How deep the sampler goes at most (and less where the schema is broad: example-budget.ts). */
const MAX_DEPTH = 8;

export class Sampler {
  /** The document and schemas as the XML writer is given them (numbers kept as text made strings), each object copied once, when first needed. */
  private readonly xmlCopies = new Map<object, unknown>();

  /** `leaveOut`: what an example leaves out — a request body's `readOnly` fields (import), a response's `writeOnly` ones (the mock). */
  constructor(
    private readonly document: Record<string, unknown>,
    private readonly warn: (message: string) => void,
    private readonly leaveOut: 'readOnly' | 'writeOnly' = 'readOnly',
  ) {}

  /** A value for the schema (`format: 'xml'`: XML text), or undefined when the sampler cannot make one. */
  make(schema: Schema | undefined, where: string, format: 'json' | 'xml' = 'json'): unknown {
    if (!schema) return undefined;
    const depth = exampleDepth(schema, MAX_DEPTH, this.document);
    if (depth === 0) {
      this.warn(`no example was made for ${where}: its schema expands past ${EXAMPLE_BUDGET.toLocaleString('en')} values at any depth — write an example in the spec`);
      return undefined;
    }
    if (depth < MAX_DEPTH) this.warn(`the example of ${where} stops ${depth} ${depth === 1 ? 'level' : 'levels'} deep: its schema expands past ${EXAMPLE_BUDGET.toLocaleString('en')} values below that — write an example in the spec`);
    try {
      const options = { skipReadOnly: this.leaveOut === 'readOnly', skipWriteOnly: this.leaveOut === 'writeOnly', quiet: true, format, maxSampleDepth: depth };
      if (format === 'json') return sample(schema as never, options, this.document);
      return sample(numbersAsText(schema, this.xmlCopies) as never, options, numbersAsText(this.document, this.xmlCopies));
    } catch (error) {
      this.warn(`no example could be made for ${where}: ${(error as Error).message}`);
      return undefined;
    }
  }
}

/** A parameter's value as text: arrays comma-separated (the `form`/`simple` styles); a number as the spec writes it. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(valueText).join(',');
  if (isLosslessNumber(value)) return String(value);
  if (typeof value === 'object') return stringifyJsonValue(value) ?? '';
  return String(value);
}

/**
 * The body of an operation, with the `Content-Type` to send it with; `notes` say what to fill in.
 * A spec has no templates: its examples are bytes (`exact`), a `{{` in them sent as written.
 */
export function bodyOf(body: RequestBody, sampler: Sampler, where: string): { contentType: string; body: ImportedBody; notes: string[] } {
  const { contentType, schema } = body;
  const notes: string[] = [];
  if (isJsonContentType(contentType)) {
    const value = body.example !== undefined ? body.example : sampler.make(schema, where);
    // An example written as JSON text is sent as that text.
    const text = typeof value === 'string' && /^\s*[[{]/.test(value) ? value.trim() : (stringifyJsonValue(value ?? {}, 2) as string);
    return { contentType, body: { kind: 'text', text, exact: true }, notes };
  }
  if (isXmlContentType(contentType)) {
    const value = typeof body.example === 'string' ? body.example : sampler.make(schema, where, 'xml');
    return { contentType, body: { kind: 'text', text: String(value ?? '').trim(), exact: true }, notes };
  }
  const value = asRecord(body.example) ?? asRecord(sampler.make(schema, where)) ?? {};
  const properties = asRecord(schema?.properties) ?? {};
  if (/x-www-form-urlencoded/i.test(contentType)) {
    return { contentType, body: { kind: 'text', text: formBody(Object.entries(value).map(([k, v]) => [k, valueText(v)])), exact: true }, notes };
  }
  if (/multipart\/form-data/i.test(contentType)) {
    const parts: MultipartPart[] = Object.entries(value).map(([name, v]) => {
      const property = asRecord(properties[name]);
      const binary = ['binary', 'base64'].includes(String(property?.format)) || property?.contentMediaType !== undefined;
      if (binary) notes.push(`"${name}" is a file: replace its text with < ./path/to/file`);
      const type = typeof property?.contentMediaType === 'string' ? property.contentMediaType : 'application/octet-stream';
      return binary ? { name, filename: `${name}.bin`, contentType: type, value: { text: '' } } : { name, value: { text: valueText(v) } };
    });
    return { contentType: `${contentType}; boundary=${MULTIPART_BOUNDARY}`, body: { kind: 'multipart', boundary: MULTIPART_BOUNDARY, parts, exact: true }, notes };
  }
  const example = body.example !== undefined ? body.example : sampler.make(schema, where);
  return { contentType, body: { kind: 'text', text: valueText(example), exact: true }, notes };
}
