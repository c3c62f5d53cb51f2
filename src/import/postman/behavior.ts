/**
 * A Postman item's `protocolProfileBehavior` (its own, else its folders', else the
 * collection's: the SDK resolves it) as what a request file can say: `followRedirects: false`
 * is `# @no-redirect`, `strictSSL: false` is `# @tls.insecureSkipVerify true`, and
 * `disableBodyPruning` decides whether a GET's body is sent at all. What a request file cannot
 * say is named in a warning, never dropped silently.
 */
import type { Item } from 'postman-collection';

/** The methods whose body Postman leaves out unless `disableBodyPruning` (postman-runtime's list). */
const PRUNED_METHODS = new Set(['GET', 'COPY', 'HEAD', 'PURGE', 'UNLOCK']);

/** The keys carried over below; the others (maxRedirects, followOriginalHttpMethod, tls…) are named. */
const CARRIED = new Set(['followRedirects', 'strictSSL', 'disableBodyPruning', 'disableCookies']);

export interface Behavior {
  annotations: Array<[string, string | true]>;
  /** Postman would not send the body of this request. */
  pruneBody: boolean;
  /** Postman follows this request's redirects (its default). */
  followsRedirects: boolean;
}

export function behaviorOf(item: Item, method: string, where: string, warn: (message: string) => void): Behavior {
  const resolved = (item as unknown as { getProtocolProfileBehaviorResolved?(): Record<string, unknown> }).getProtocolProfileBehaviorResolved?.() ?? {};
  const annotations: Behavior['annotations'] = [];
  if (resolved.followRedirects === false) annotations.push(['no-redirect', true]);
  if (resolved.strictSSL === false) annotations.push(['tls.insecureSkipVerify', 'true']);
  if (resolved.disableCookies === true) warn(`${where}: Postman's protocolProfileBehavior disableCookies has no equivalent in a request file: run it with --no-cookies`);
  const others = Object.keys(resolved).filter((key) => !CARRIED.has(key));
  if (others.length > 0) warn(`${where}: Postman's protocolProfileBehavior ${others.join(', ')} has no equivalent in reqflow: not imported`);
  return {
    annotations,
    pruneBody: PRUNED_METHODS.has(method) && resolved.disableBodyPruning !== true,
    followsRedirects: resolved.followRedirects !== false,
  };
}
