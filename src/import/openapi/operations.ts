/**
 * The operations of a dereferenced spec, the same shape for Swagger 2.0 and OpenAPI 3.x: where
 * 2.0 has `in: body` and `in: formData` parameters and `consumes`, 3.x has a `requestBody` with
 * its media types. Everything else reads the one shape.
 */
import { asRecord } from '../source.js';
import type { SpecVersion } from './load-spec.js';

export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** The example written in the spec (parameter, its examples, its schema), if any. */
  example?: unknown;
  schema?: Schema;
  /** How an array or object goes on the wire: OpenAPI 3's `style`, or Swagger 2.0's `collectionFormat` read as one. */
  style?: 'form' | 'simple' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'label' | 'matrix';
  /** OpenAPI 3's `explode` (default: true for the form style, else false); Swagger 2.0's `multi`. */
  explode?: boolean;
}

/** Swagger 2.0's `collectionFormat` as OpenAPI 3's style and explode. */
const COLLECTION_FORMATS: Record<string, Pick<Parameter, 'style' | 'explode'>> = {
  csv: { style: 'form', explode: false },
  ssv: { style: 'spaceDelimited', explode: false },
  pipes: { style: 'pipeDelimited', explode: false },
  multi: { style: 'form', explode: true },
};

export interface RequestBody {
  contentType: string;
  example?: unknown;
  schema?: Schema;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  tags: string[];
  parameters: Parameter[];
  body?: RequestBody;
  /** The operation's own, else the spec's; `undefined`: none declared. */
  security?: SecurityRequirement[];
  /** 3.x: the operation's own `servers`, else its path item's; they replace the spec's. */
  servers?: unknown[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Media types in the order a body example is looked for. */
const PREFERRED = [/^application\/json$/i, /\+json$/i, /^application\/x-www-form-urlencoded$/i, /^multipart\/form-data$/i, /xml/i, /^text\//i];

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** An `examples` map's first value (3.x: `{name: {value}}`; 2.0 body: `{mediaType: value}`). */
function firstExample(examples: unknown): unknown {
  const first = Object.values(asRecord(examples) ?? {})[0];
  const record = asRecord(first);
  return record && 'value' in record ? record.value : first;
}

function exampleOf(record: Record<string, unknown>, schema: Schema | undefined): unknown {
  if (record.example !== undefined) return record.example;
  if (record.examples !== undefined) return firstExample(record.examples);
  if (record['x-example'] !== undefined) return record['x-example'];
  return schema?.example ?? schema?.default ?? list(schema?.enum)[0];
}

function parameterOf(raw: unknown, version: SpecVersion): Parameter | undefined {
  const record = asRecord(raw);
  const where = record?.in;
  if (!record || typeof record.name !== 'string' || !(where === 'path' || where === 'query' || where === 'header' || where === 'cookie')) return undefined;
  // Swagger 2.0: type, format, items and enum sit on the parameter itself.
  const schema = version === '2.0' ? record : asRecord(record.schema);
  const example = exampleOf(record, schema);
  const serialized = version === '2.0' ? (COLLECTION_FORMATS[String(record.collectionFormat ?? 'csv')] ?? {}) : { ...(typeof record.style === 'string' ? { style: record.style as Parameter['style'] } : {}), ...(typeof record.explode === 'boolean' ? { explode: record.explode } : {}) };
  return { name: record.name, in: where, required: record.required === true || where === 'path', ...(example !== undefined ? { example } : {}), ...(schema ? { schema } : {}), ...serialized };
}

/** Path-level parameters, overridden by the operation's of the same name and place. */
function mergedParameters(pathLevel: unknown, own: unknown): unknown[] {
  const key = (p: unknown): string => `${String(asRecord(p)?.in)}:${String(asRecord(p)?.name)}`;
  const ownKeys = new Set(list(own).map(key));
  return [...list(pathLevel).filter((p) => !ownKeys.has(key(p))), ...list(own)];
}

function pickMediaType(types: string[]): string | undefined {
  for (const preferred of PREFERRED) {
    const found = types.find((type) => preferred.test(type));
    if (found) return found;
  }
  return types[0];
}

function bodyV3(operation: Record<string, unknown>): RequestBody | undefined {
  const content = asRecord(asRecord(operation.requestBody)?.content);
  if (!content) return undefined;
  const contentType = pickMediaType(Object.keys(content));
  const media = contentType ? asRecord(content[contentType]) : undefined;
  if (!contentType || !media) return undefined;
  const schema = asRecord(media.schema);
  const example = exampleOf(media, schema);
  return { contentType, ...(example !== undefined ? { example } : {}), ...(schema ? { schema } : {}) };
}

function bodyV2(operation: Record<string, unknown>, parameters: unknown[], consumes: unknown): RequestBody | undefined {
  const body = parameters.map(asRecord).find((p) => p?.in === 'body');
  const types = list(asRecord(operation)?.consumes ?? consumes).filter((t): t is string => typeof t === 'string');
  if (body) {
    const schema = asRecord(body.schema);
    const example = exampleOf(body, schema);
    return { contentType: pickMediaType(types.filter((t) => !/form/i.test(t))) ?? 'application/json', ...(example !== undefined ? { example } : {}), ...(schema ? { schema } : {}) };
  }
  const fields = parameters.map(asRecord).filter((p): p is Record<string, unknown> => p?.in === 'formData' && typeof p.name === 'string');
  if (fields.length === 0) return undefined;
  // A form as an object schema, so both versions make their example the same way.
  const properties = Object.fromEntries(fields.map((f) => [f.name as string, f.type === 'file' ? { type: 'string', format: 'binary' } : { ...f, ...(f['x-example'] !== undefined ? { example: f['x-example'] } : {}) }]));
  const multipart = types.some((t) => /multipart/i.test(t)) || fields.some((f) => f.type === 'file');
  return { contentType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded', schema: { type: 'object', properties, required: fields.filter((f) => f.required === true).map((f) => f.name) } };
}

export function operationsOf(document: Record<string, unknown>, version: SpecVersion): Operation[] {
  const operations: Operation[] = [];
  const topSecurity = Array.isArray(document.security) ? (document.security as SecurityRequirement[]) : undefined;
  for (const [path, item] of Object.entries(asRecord(document.paths) ?? {})) {
    const pathItem = asRecord(item);
    if (!pathItem) continue;
    for (const method of METHODS) {
      const operation = asRecord(pathItem[method]);
      if (!operation) continue;
      const raw = mergedParameters(pathItem.parameters, operation.parameters);
      const body = version === '2.0' ? bodyV2(operation, raw, document.consumes) : bodyV3(operation);
      const security = Array.isArray(operation.security) ? (operation.security as SecurityRequirement[]) : topSecurity;
      const servers = version === '2.0' ? undefined : [operation.servers, pathItem.servers].find((s): s is unknown[] => Array.isArray(s) && s.length > 0);
      operations.push({
        method: method.toUpperCase(),
        path,
        ...(text(operation.operationId) ? { operationId: operation.operationId as string } : {}),
        ...(text(operation.summary) ? { summary: (operation.summary as string).split('\n')[0] as string } : {}),
        tags: list(operation.tags).filter((t): t is string => typeof t === 'string'),
        parameters: raw.map((p) => parameterOf(p, version)).filter((p): p is Parameter => p !== undefined),
        ...(body ? { body } : {}),
        ...(security ? { security } : {}),
        ...(servers ? { servers } : {}),
      });
    }
  }
  return operations;
}
