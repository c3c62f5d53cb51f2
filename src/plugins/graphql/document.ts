import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { ParseError, UsageError, VariableError } from '../../core/errors/index.js';
import type { RequestContext } from '../../pipeline/context.js';
import { MAX_JSON_DEPTH } from '../../core/json-depth.js';
import { bodyPositionInFile } from './body-location.js';
import { graphqlTooDeepAt } from './nesting.js';

type OperationType = 'query' | 'mutation' | 'subscription';

/** The operation a request sends, as the local parse of its body found it. */
export interface SelectedOperation {
  type: OperationType;
  /** Sent as `operationName` when `# @operation` picked it. */
  operationName?: string;
  /** `$name` → its declared type, e.g. `ID!`. */
  declared: Map<string, string>;
  /** Non-null variables without a default: they must have a value. */
  required: string[];
}

type Language = Pick<typeof import('graphql'), 'parse' | 'print'>;

/**
 * Only graphql's parser and printer: the package root loads the whole library (type system,
 * validation, execution), several times slower to import. graphql 16 has no `exports` map
 * and no typings for the `.mjs` files, hence the untyped specifiers. Node caches the modules.
 */
async function importLanguage(): Promise<Language> {
  const parser = 'graphql/language/parser.mjs';
  const printer = 'graphql/language/printer.mjs';
  const [{ parse }, { print }] = (await Promise.all([import(parser), import(printer)])) as [Pick<Language, 'parse'>, Pick<Language, 'print'>];
  return { parse, print };
}

/** Imported once per run (an import() of a loaded module still costs the loader a visit per request). */
function loadLanguage(ctx: RequestContext): Promise<Language> {
  return (ctx.runState['graphql-language'] ??= importLanguage()) as Promise<Language>;
}

const PARSED_DOCUMENTS_KEPT = 64;

/** Documents parsed in this run, by text: a batch sends the same query many times (never mutated, only read). */
function parsedDocumentsOf(ctx: RequestContext): Map<string, DocumentNode> {
  return (ctx.runState['graphql-documents'] ??= new Map<string, DocumentNode>()) as Map<string, DocumentNode>;
}

/**
 * Parses the GraphQL body locally (graphql 16, imported only in GraphQL mode) and picks the
 * operation to send. A syntax error is exit 2 with the line and column in the request file.
 */
export async function selectOperation(ctx: RequestContext, query: string): Promise<SelectedOperation> {
  const { parse, print } = await loadLanguage(ctx);
  const parsedDocuments = parsedDocumentsOf(ctx);
  let document = parsedDocuments.get(query);
  try {
    if (!document) {
      const deep = graphqlTooDeepAt(query, MAX_JSON_DEPTH);
      if (deep !== undefined) throw await tooDeep(ctx, query, deep);
      document = parse(query);
      if (parsedDocuments.size >= PARSED_DOCUMENTS_KEPT) parsedDocuments.clear();
      parsedDocuments.set(query, document);
    }
  } catch (error) {
    const located = error as { name?: string; message: string; locations?: ReadonlyArray<{ line: number; column: number }> };
    if (located.name !== 'GraphQLError') throw error;
    throw await syntaxError(ctx, query, located.message, located.locations?.[0]);
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const names = operations.map((o) => o.name?.value ?? '(anonymous)');
  const { spec } = ctx;
  const where = `request "${spec.name}" (${spec.source.file}:${spec.source.line})`;
  if (operations.length === 0) throw new UsageError(`the GraphQL body of ${where} has no operation, only fragments`, { hint: 'add a query, mutation or subscription, e.g. { user(id: 1) { ...UserFields } }' });
  const wanted = spec.annotations.operation?.trim();
  let operation: OperationDefinitionNode;
  if (wanted) {
    const found = operations.find((o) => o.name?.value === wanted);
    if (!found) throw new UsageError(`no GraphQL operation named "${wanted}" in ${where}`, { hint: `operations in the body: ${names.join(', ')}` });
    operation = found;
  } else if (operations.length > 1) {
    throw new UsageError(`the GraphQL body of ${where} has ${operations.length} operations (${names.join(', ')}); pick one with # @operation NAME`, {
      hint: `add "# @operation ${operations.find((o) => o.name)?.name?.value ?? 'NAME'}" above the request line (YAML/JSON: operation: NAME)`,
    });
  } else operation = operations[0] as OperationDefinitionNode;
  if (operations.length > 1 && operations.some((o) => !o.name)) {
    throw new UsageError(`the GraphQL body of ${where} mixes an anonymous operation with others`, { hint: 'name every operation (query Name { ... }) so that # @operation can pick one' });
  }
  const declared = new Map<string, string>();
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    declared.set(name, print(definition.type));
    if (definition.type.kind === 'NonNullType' && definition.defaultValue === undefined) required.push(name);
  }
  return { type: operation.operation as OperationType, ...(wanted ? { operationName: wanted } : {}), declared, required };
}

/** Exit 2 at the bracket that opens the level past {@link MAX_JSON_DEPTH}, in the request file where it can be found. */
async function tooDeep(ctx: RequestContext, query: string, offset: number): Promise<ParseError> {
  const before = query.slice(0, offset).split(/\r\n?|\n/);
  const location = { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
  const { spec } = ctx;
  const what = `the GraphQL body of request "${spec.name}" is nested more than ${MAX_JSON_DEPTH} levels deep`;
  const hint = { hint: `a GraphQL document may nest selection sets, lists and objects at most ${MAX_JSON_DEPTH} levels deep` };
  const position = await bodyPositionInFile(ctx.file, spec, query, location.line, location.column);
  if (position) return new ParseError(spec.source.file, position.line, position.column, what, hint);
  return new ParseError(spec.source.file, spec.source.line, 1, `${what} (line ${location.line}, column ${location.column} of the GraphQL body)`, hint);
}

async function syntaxError(ctx: RequestContext, query: string, message: string, location: { line: number; column: number } | undefined): Promise<UsageError> {
  const what = `GraphQL syntax error: ${message.replace(/^Syntax Error:\s*/, '')}`;
  const { spec } = ctx;
  if (!location) return new ParseError(spec.source.file, spec.source.line, 1, what);
  const sourceLine = query.split(/\r?\n/)[location.line - 1]?.trim();
  const hint = sourceLine ? `the line reads: ${sourceLine.length > 80 ? `${sourceLine.slice(0, 77)}...` : sourceLine}` : undefined;
  const position = await bodyPositionInFile(ctx.file, spec, query, location.line, location.column);
  if (position) return new ParseError(spec.source.file, position.line, position.column, what, hint ? { hint } : {});
  return new ParseError(spec.source.file, spec.source.line, 1, `${what} (line ${location.line}, column ${location.column} of the GraphQL body)`, hint ? { hint } : {});
}

/** A declared non-null variable with no value is exit 3, naming it. */
export function checkRequiredVariables(ctx: RequestContext, operation: SelectedOperation, variables: Record<string, unknown> | undefined): void {
  const missing = operation.required.filter((name) => variables?.[name] === undefined || variables[name] === null);
  if (missing.length === 0) return;
  const list = missing.map((name) => `$${name} (${operation.declared.get(name) ?? '?'})`).join(', ');
  const example = JSON.stringify(Object.fromEntries(missing.map((name) => [name, '...'])));
  throw new VariableError(`GraphQL variable${missing.length > 1 ? 's' : ''} ${list} of request "${ctx.spec.name}" ha${missing.length > 1 ? 've' : 's'} no value`, {
    hint: `set ${missing.length > 1 ? 'them' : 'it'} with # @variables ${example} (YAML/JSON: a variables field); {{var}} works inside`,
  });
}

/** Variables that the operation does not declare are ignored by servers: most likely a typo. */
export function warnUndeclaredVariables(ctx: RequestContext, operation: SelectedOperation, variables: Record<string, unknown> | undefined): void {
  const extra = Object.keys(variables ?? {}).filter((name) => !operation.declared.has(name));
  if (extra.length > 0) ctx.warn(`GraphQL variable${extra.length > 1 ? 's' : ''} ${extra.map((n) => `$${n}`).join(', ')} of request "${ctx.spec.name}" ${extra.length > 1 ? 'are' : 'is'} not declared by the operation`);
}
