/**
 * `reqflow mock --from-openapi SPEC`: one route per operation, answering with its success
 * response's example (`example`, the first of `examples`, else one sampled from the schema).
 * The parser and the sampler are the ones `reqflow import openapi` uses, imported only here; so
 * is its budget: an example made from a schema stops where it would pass 10,000 values, served
 * shallower (or without a body) with a warning, as import writes it (example-budget.ts).
 * A body is served in its media type's form, or the spec is refused (servedBody).
 */
import { UsageError } from '../core/errors/index.js';
import { Sampler } from '../import/openapi/examples.js';
import { MAX_EXPANDED_VALUES, refExpansionPastLimit } from '../import/openapi/ref-expansion.js';
import { plainSchemaNumbers } from '../import/openapi/schema-numbers.js';
import { SpecFiles } from '../import/openapi/spec-files.js';
import { toMockConfig, type MockConfig } from './config.js';
import { isJsonContentType, isXmlContentType } from '../core/content-type.js';
import { servedBody } from './openapi-body.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/pets/{petId}` → a regex with a named group per parameter (`{{params.petId}}`); plain paths stay exact. */
function routePath(path: string): { path: string; pathType: 'exact' | 'regex' } {
  if (!path.includes('{')) return { path, pathType: 'exact' };
  const seen = new Set<string>();
  const pattern = path
    .split(/(\{[^}]*\})/)
    .map((part) => {
      const name = /^\{([^}]*)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // A name an RE2 group cannot carry (`{pet-id}`, `{a$b}`), or said twice, is still captured: as a number.
      const usable = /^[A-Za-z_]\w*$/.test(name) && !seen.has(name);
      seen.add(name);
      return usable ? `(?<${name}>[^/]+)` : '([^/]+)';
    })
    .join('');
  return { path: pattern, pathType: 'regex' };
}

/** The operation's success response: the lowest 2xx, else `default`, else the first listed. */
function successResponse(operation: Obj): { status: number; response: Obj } | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const codes = Object.keys(responses);
  const code = codes.filter((c) => /^2\d\d$/.test(c)).sort()[0] ?? (codes.includes('default') ? 'default' : codes.find((c) => /^\d{3}$/.test(c)));
  if (code === undefined || !isObject(responses[code])) return undefined;
  return { status: code === 'default' ? 200 : Number(code), response: responses[code] };
}

/**
 * The example body and its media type: OpenAPI 3 `content`, or Swagger 2 `examples`/`schema`.
 * `where`: the operation and status, for the sampler's warnings (`GET /pets (listPets), response 200`).
 */
function exampleOf(response: Obj, sampler: Sampler, where: string): { type?: string; body?: unknown; sampled?: boolean } {
  // An XML body is sampled as XML, as `reqflow import` makes a request's (the schema's `xml` names and attributes).
  const draw = (schema: unknown, type: string): unknown => (isObject(schema) ? sampler.make(schema, `${where}, ${type}`, isXmlContentType(type) ? 'xml' : 'json') : undefined);
  if (isObject(response.content)) {
    const types = Object.keys(response.content);
    const type = types.find(isJsonContentType) ?? types[0];
    const media = type === undefined ? undefined : response.content[type];
    if (type === undefined || !isObject(media)) return {};
    const named = isObject(media.examples) ? Object.values(media.examples).find((e) => isObject(e) && e.value !== undefined) : undefined;
    const example = media.example ?? (isObject(named) ? named.value : undefined);
    return example !== undefined ? { type, body: example } : { type, body: draw(media.schema, type), sampled: true };
  }
  const examples = isObject(response.examples) ? response.examples : {};
  const type = Object.keys(examples).find(isJsonContentType) ?? Object.keys(examples)[0];
  if (type !== undefined) return { type, body: examples[type] };
  return response.schema === undefined ? {} : { type: 'application/json', body: draw(response.schema, 'application/json'), sampled: true };
}

/**
 * `maxBytes`: the most bytes the spec and each file its `$ref`s name may have (`--max-size`, as `reqflow import`'s).
 * `warn`: one line each, the spec named — an example made shallower than its schema, or not at all.
 */
export async function loadOpenApiMock(spec: string, maxBytes: number, warn: (message: string) => void): Promise<MockConfig> {
  const { dereference } = await import('@readme/openapi-parser');
  // A spec is someone else's: a `$ref` to `~/.aws/credentials` would be served as an example, and one that expands enormously would never load.
  // Numbers kept as written: an example's `1.10` and 64-bit ids are served as the spec writes them.
  const files = new SpecFiles(spec, maxBytes, 'mock');
  const unreadable = (why: string, hint?: string): UsageError => new UsageError(`${spec}: not a readable OpenAPI document: ${why}`, hint === undefined ? {} : { hint });
  let api: Obj;
  try {
    const past = await refExpansionPastLimit(files, spec);
    if (past !== undefined) throw unreadable(`its $refs expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en')} values (at ${past})`);
    api = (await dereference(spec, files.options())) as unknown as Obj;
    plainSchemaNumbers(api);
  } catch (error) {
    if (error instanceof UsageError && files.refused === undefined) throw error;
    // A refusal's hint (`--max-size`) stays with it.
    throw unreadable(files.refused ?? (error as Error).message.split('\n')[0] ?? '', error instanceof UsageError ? error.hint : undefined);
  }
  const routes: Obj[] = [];
  // A response's example leaves out writeOnly fields (a request's, in import, readOnly ones).
  const sampler = new Sampler(api, (message) => warn(`${spec}: ${message}`), 'writeOnly');
  for (const [path, item] of Object.entries(isObject(api.paths) ? api.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const success = successResponse(operation);
      const name = operation.operationId ?? operation.summary;
      const where = `${method.toUpperCase()} ${path}${typeof name === 'string' && name !== '' ? ` (${name})` : ''}, response ${success?.status ?? 200}`;
      const { type, body, sampled } = success ? exampleOf(success.response, sampler, where) : {};
      routes.push({
        method: method.toUpperCase(),
        ...routePath(path),
        status: success?.status ?? 200,
        ...(typeof name === 'string' && name !== '' ? { name } : {}),
        ...(type !== undefined && body !== undefined ? { headers: { 'Content-Type': type } } : {}),
        ...(body !== undefined ? { body: servedBody(body, type ?? 'application/json', { where: () => `${spec}: ${where}`, sampled: sampled === true }) } : {}),
      });
    }
  }
  if (routes.length === 0) throw new UsageError(`${spec}: no operations under paths`);
  return toMockConfig({ routes }, spec);
}
