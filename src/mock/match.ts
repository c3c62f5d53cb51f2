/** Which route answers a request: the first in file order whose method and path match (restcli's rule). */
import type { MockRoute } from './config.js';

export interface RouteMatch {
  route: MockRoute;
  /** A regex route's capture groups: `1`, `2`, … and the named ones. */
  params: Record<string, string>;
}

function methodMatches(route: MockRoute, method: string): boolean {
  // HEAD is answered by a GET route, as servers do (Node drops the body).
  return route.method === '*' || route.method === method || (method === 'HEAD' && route.method === 'GET');
}

function pathParams(route: MockRoute, path: string): Record<string, string> | undefined {
  switch (route.pathType) {
    case 'exact':
      return route.path === path ? {} : undefined;
    case 'prefix':
      return path.startsWith(route.path) ? {} : undefined;
    case 'regex':
      return route.pattern?.match(path);
  }
}

/** `path` is the URL's path without its query string, as sent (not decoded). */
export function matchRoute(routes: readonly MockRoute[], method: string, path: string): RouteMatch | undefined {
  for (const route of routes) {
    if (!methodMatches(route, method)) continue;
    const params = pathParams(route, path);
    if (params) return { route, params };
  }
  return undefined;
}
