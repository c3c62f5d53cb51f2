import type { GraphqlResultShape } from '../../report/reporter.js';

/** One GraphQL response (or one subscription event), as the GraphQL spec shapes it. */
export interface GraphqlResult extends GraphqlResultShape {
  extensions?: unknown;
}

/** An object with `data` or `errors` (an array): anything else is not a GraphQL response. */
export function isGraphqlResult(value: unknown): value is GraphqlResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.errors !== undefined && !Array.isArray(record.errors)) return false;
  return 'data' in record || Array.isArray(record.errors);
}

export function hasErrors(result: GraphqlResult): boolean {
  return Array.isArray(result.errors) && result.errors.length > 0;
}
