/** A server may send a few `100 Continue` / `103 Early Hints` before its answer; not thousands. */
export const MAX_INTERIM_RESPONSES = 100;

/**
 * The error that ends an exchange past `limit` interim (1xx) responses: HTTP/1.1, HTTP/2, the
 * stress replay and the proxy alike. Coded as hop-failures.ts's errors are (this module imports
 * nothing, so http2.ts may use it without a cycle).
 */
export function interimFlood(limit = MAX_INTERIM_RESPONSES): NodeJS.ErrnoException {
  return Object.assign(new Error(`more than ${limit} interim (1xx) responses and no final one`), { code: 'REQFLOW_INTERIM_FLOOD' });
}
