/**
 * Whether a run has a proxy at all: `--proxy`, the profile's `proxy`, or one of the proxy
 * variables of the environment. Apart from the rules (proxy.ts), so that the common run
 * without one never loads them.
 */

/** The variables that name a proxy, by scheme (curl's names; lower case is read first). */
export const PROXY_VARIABLES = [
  ['http', 'http_proxy'],
  ['https', 'https_proxy'],
  ['all', 'all_proxy'],
] as const;

/** A proxy variable's value: lower case first, then upper case, as curl reads them. */
export function proxyVariable(vars: NodeJS.ProcessEnv, name: string): string | undefined {
  return vars[name.toLowerCase()] || vars[name.toUpperCase()] || undefined;
}

/** Does anything name a proxy for this run? (`no_proxy` alone does not: it only exempts hosts.) */
export function proxyConfigured(options: { proxy?: string }, env: NodeJS.ProcessEnv, profile?: { proxy?: string }): boolean {
  if (options.proxy !== undefined || profile?.proxy !== undefined) return true;
  return PROXY_VARIABLES.some(([, name]) => proxyVariable(env, name) !== undefined);
}
