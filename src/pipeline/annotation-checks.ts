/**
 * What is said of a request file's annotations that reqflow cannot take (loaded only for such a
 * file): a value its own annotation does not take, and a name no plugin reads.
 */
import { UsageError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { PluginRegistry } from '../core/registry.js';
import { annotationLine } from '../core/request-settings.js';
import { closestName } from '../core/suggest.js';

/**
 * `# @streaming maybe` or `# @protocol grpc` is exit 2 naming the request and its line, before
 * anything is sent — unless a third-party plugin reads that annotation (it may add a protocol).
 */
export function badValueError(name: string, spec: RequestSpec, allowed: readonly string[]): UsageError {
  return new UsageError(`# @${name} of request "${spec.name}" (${spec.source.file}:${annotationLine(spec, name)}) expects ${allowed.join(' or ')}, got ${JSON.stringify((spec.annotations[name] as string).slice(0, 40))}`, {
    hint: name === 'protocol' ? 'plain HTTP needs no @protocol; other protocols come from plugins (docs/plugins.md)' : 'write # @streaming (or true) for server-sent events, or leave it out',
  });
}

/** One warning per unknown annotation name in a file (its first request), naming the known one meant where one is close (`# @filer` → `@filter`). */
export function warnUnknownAnnotations(unknown: ReadonlyMap<string, RequestSpec>, registry: PluginRegistry, warn: (message: string) => void): void {
  const known = registry.annotationNames();
  for (const [name, spec] of unknown) {
    const guess = closestName(name, known);
    warn(`unknown annotation "@${name}" in request "${spec.name}" (${spec.source.file}:${annotationLine(spec, name)}) is ignored${guess ? `; did you mean "@${guess}"?` : ''}`);
  }
}
