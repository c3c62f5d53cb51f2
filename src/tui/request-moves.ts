/**
 * Where each request of the tree went when its file changed on disk (a request added above it,
 * one removed, the file edited with `E`): the UI's state of a request — its last exchange, the
 * selection — follows the request, not the row it was on. Request ids change with a request's
 * place in its file (request-states.ts), so a reload re-keys them by what the two parses match.
 */
import { resolve } from 'node:path';
import type { RequestSpec } from '../core/model.js';
import { isPlaceName } from '../core/place-name.js';
import type { Catalog } from './catalog.js';
import { requestId } from './request-states.js';

/** What names a request in its file across edits: its name, or (unnamed) its method and URL as written. */
function identity(spec: RequestSpec): string {
  return isPlaceName(spec.name) ? `${spec.method} ${spec.url}` : `name ${spec.name}`;
}

/** Each spec's identity with how many before it share it: the k-th of an identity matches the k-th. */
function numbered(specs: readonly RequestSpec[]): string[] {
  const seen = new Map<string, number>();
  return specs.map((spec) => {
    const id = identity(spec);
    const k = seen.get(id) ?? 0;
    seen.set(id, k + 1);
    return `${id}\u0000${k}`;
  });
}

/** Where the requests of the files read again went; `reread`: those files, by path (request ids start with it). */
export interface RequestMoves {
  moves: Map<string, string>;
  reread: Set<string>;
}

/**
 * Request ids before → after, for every file read well both times. A request with no match
 * (removed, renamed, or unnamed with its URL changed) has no entry: nothing of it carries over.
 * A file that does not parse now (an editor's save half done) is not in `reread`: its requests
 * keep what they had until it parses again.
 */
export function requestMoves(before: Catalog, after: Catalog): RequestMoves {
  const moves = new Map<string, string>();
  const reread = new Set<string>();
  const now = new Map(after.files.filter((file) => !file.error).map((file) => [file.path, file.specs]));
  for (const file of before.files) {
    const specs = now.get(file.path);
    if (!specs || file.error) continue;
    reread.add(resolve(file.path));
    const afterByKey = new Map<string, RequestSpec>();
    numbered(specs).forEach((key, index) => afterByKey.set(key, specs[index] as RequestSpec));
    numbered(file.specs).forEach((key, index) => {
      const to = afterByKey.get(key);
      if (to) moves.set(requestId(file.specs[index] as RequestSpec), requestId(to));
    });
  }
  return { moves, reread };
}

/**
 * Whether `sent` (the spec a send was made from) is still what `now` says, field by field as
 * written: the request pane shows a send "as sent" only while the file says the same.
 */
export function sameAsWritten(sent: RequestSpec, now: RequestSpec): boolean {
  if (sent === now) return true;
  // Everything the file says of it (scripts, checks and captures too), but where it is written.
  const written = ({ source: _source, ...said }: RequestSpec): string => JSON.stringify(said);
  return written(sent) === written(now);
}
