import { UsageError } from '../../core/errors/index.js';
import { getHeader, setHeader } from '../../core/headers.js';
import { holdsLosslessNumbers, isLosslessNumber, stringifyJsonValue } from '../../core/json-exact.js';
import type { RequestContext } from '../../pipeline/context.js';
import { checkRequiredVariables, selectOperation, warnUndeclaredVariables, type SelectedOperation } from './document.js';
import { graphqlVariables } from './variables.js';

/** How an operation travels: one POST, GraphQL over SSE, or the graphql-ws WebSocket protocol. */
type Transport = 'http' | 'sse' | 'ws';

/** What the transform stage decided, for the send and render stages. */
export interface GraphqlState {
  operation: SelectedOperation;
  transport: Transport;
  /** The JSON payload: `{ query, operationName?, variables? }`. */
  payload: { query: string; operationName?: string; variables?: Record<string, unknown> };
  /** Releases a WebSocket transport (set by send). */
  close?: () => void;
}

export function graphqlState(ctx: RequestContext): GraphqlState | undefined {
  return ctx.state.graphql as GraphqlState | undefined;
}

const ACCEPT: Record<Exclude<Transport, 'ws'>, string> = {
  http: 'application/graphql-response+json, application/json;q=0.9',
  sse: 'text/event-stream',
};

/** Subscriptions stream over SSE unless `# @transport ws`; `# @streaming true` streams any operation. */
function chooseTransport(ctx: RequestContext, operation: SelectedOperation): Transport {
  const asked = ctx.spec.annotations.transport?.trim().toLowerCase();
  if (asked !== undefined && asked !== 'sse' && asked !== 'ws') {
    throw new UsageError(`unknown # @transport "${ctx.spec.annotations.transport}" in request "${ctx.spec.name}"`, { hint: 'use sse (GraphQL over server-sent events, the default for subscriptions) or ws (the graphql-ws WebSocket protocol)' });
  }
  if (asked === 'ws') return 'ws';
  if (asked === 'sse' || operation.type === 'subscription' || ctx.spec.annotations.streaming === 'true') return 'sse';
  return 'http';
}


/**
 * A variables value with its numbers kept as written made plain numbers, for a transport that
 * writes JSON itself; exit 2 naming the request for one a double cannot hold (past 2^53 as an
 * integer, or out of range like 1e400), which would go out as another number.
 */
function asDoubles(value: unknown, ctx: RequestContext): unknown {
  if (isLosslessNumber(value)) {
    const text = String(value);
    const number = Number(text);
    if (!Number.isFinite(number) || (/^-?\d+$/.test(text) && !Number.isSafeInteger(number))) {
      const { spec } = ctx;
      throw new UsageError(`GraphQL request "${spec.name}" (${spec.source.file}:${spec.source.line}) has the variable number ${text.slice(0, 40)}, which a double cannot hold: it cannot go over the WebSocket transport as written`, { hint: 'send it as a string, or use the SSE transport (remove # @transport ws)' });
    }
    return number;
  }
  if (Array.isArray(value)) return value.map((item) => asDoubles(item, ctx));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asDoubles(item, ctx)]));
  return value;
}

/**
 * GraphQL mode's transform stage: parses the body locally, picks the operation, gathers the
 * variables, and shapes the request as `POST` with `{"query", "operationName", "variables"}`.
 */
export async function transformGraphql(ctx: RequestContext): Promise<RequestContext> {
  const { spec } = ctx;
  const query = typeof spec.body === 'string' ? spec.body : (spec.body?.toString('utf8') ?? '');
  if (query.trim() === '') {
    throw new UsageError(`GraphQL request "${spec.name}" (${spec.source.file}:${spec.source.line}) has no query`, { hint: 'write the query as the body: a blank line after the headers, then e.g. { users { name } }' });
  }
  const operation = await selectOperation(ctx, query);
  const variables = await graphqlVariables(ctx);
  checkRequiredVariables(ctx, operation, variables);
  warnUndeclaredVariables(ctx, operation, variables);
  const transport = chooseTransport(ctx, operation);
  const payload: GraphqlState['payload'] = { query, ...(operation.operationName ? { operationName: operation.operationName } : {}), ...(variables ? { variables } : {}) };
  const state: GraphqlState = { operation, transport, payload };
  ctx.state.graphql = state;
  if (transport === 'ws') {
    // graphql-ws writes the message with JSON.stringify: a number kept as written goes as the
    // double it is (`1.10` as 1.1, the same value), one a double cannot hold is refused, not rounded.
    if (variables && holdsLosslessNumbers(variables)) state.payload = { ...payload, variables: asDoubles(variables, ctx) as Record<string, unknown> };
    return ctx; // no HTTP request: the payload travels in a subscribe message
  }
  if (spec.method !== 'POST') {
    if (ctx.spec.methodWritten !== false) ctx.warn(`GraphQL requests are sent as POST; request "${spec.name}" says ${spec.method}`);
    spec.method = 'POST';
  }
  const type = getHeader(spec.headers, 'content-type');
  if (type !== undefined && !/json/i.test(type)) ctx.warn(`GraphQL requests send JSON: Content-Type "${type}" of request "${spec.name}" is replaced by application/json`);
  if (type === undefined || !/json/i.test(type)) setHeader(spec.headers, 'Content-Type', 'application/json');
  if (getHeader(spec.headers, 'accept') === undefined) setHeader(spec.headers, 'Accept', ACCEPT[transport]);
  spec.body = stringifyJsonValue(payload) as string; // numbers of the variables as written
  return ctx;
}
