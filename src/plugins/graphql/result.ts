/** One GraphQL response (or one subscription event), as the GraphQL spec shapes it. */
export interface GraphqlResult {
  data?: unknown;
  errors?: GraphqlError[];
  extensions?: unknown;
}

export interface GraphqlError {
  message?: unknown;
  locations?: Array<{ line?: unknown; column?: unknown }>;
  path?: Array<string | number>;
  extensions?: Record<string, unknown>;
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
