/**
 * A URL a request writes whole (no template) that cannot be sent — `GET ./other.http`, `GET
 * mailto:x` — is found as the file is read, and refused before the first request of the run goes
 * out when the run would send it: not when its turn comes, after the requests above it.
 */
import { withDefaultScheme } from '../core/default-scheme.js';
import type { ReqflowError } from '../core/errors/index.js';
import { parseRequestUrl } from '../core/http/send.js';
import type { RequestSpec } from '../core/model.js';
import type { RequestFile } from './request-file.js';

/** Why the request's URL, written whole, cannot be sent (as sending would say it); undefined when it can, or holds a template. WebSocket URLs (`WEBSOCKET`, GraphQL over `ws://`) are their plugins'. */
export function unsendableUrl(spec: RequestSpec): ReqflowError | undefined {
  if (spec.url.includes('{{') || spec.webSocket !== undefined || /^wss?:\/\//i.test(spec.url)) return undefined;
  // An httpyac request hook (`{{@request`) may set the URL before it goes out: checked then.
  if (spec.chain?.scripts?.some((script) => script.phase === 'request') === true) return undefined;
  try {
    parseRequestUrl(withDefaultScheme(spec.url));
    return undefined;
  } catch (error) {
    return error as ReqflowError;
  }
}

/**
 * Exit 2 naming the first request of `selected` (all when undefined) whose URL cannot be sent. A
 * dry run sends nothing: it prints each request, and refuses one such as sending would.
 */
export async function refuseUnsendable(requests: RequestFile, selected: readonly number[] | undefined, dryRun: boolean): Promise<void> {
  if (dryRun) return;
  const first = requests.unsendable?.find((index) => selected === undefined || selected.includes(index));
  if (first === undefined) return;
  const spec = requests.spec(first);
  const error = unsendableUrl(spec);
  if (error) throw (await import('./request-place.js')).placedError(error, spec);
}
