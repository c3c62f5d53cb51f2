/**
 * What is said of a request file's annotations that reqflow cannot take (loaded only for such a
 * file): a value its own annotation does not take, and a name no plugin reads.
 */
import { UsageError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { PluginRegistry } from '../core/registry.js';
import { annotationLine } from '../core/request-settings.js';
import { closestName } from '../core/suggest.js';
import { rateLimitProblem } from '../core/rate-limit-syntax.js';

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

/** What each of httpyac's checked annotations is called there, for the error. */
const HTTPYAC_NAMES: Readonly<Record<string, string>> = { ratelimit: 'ratelimit', 'no-proxy': 'noProxy', 'keep-streaming': 'keepStreaming' };

/** Why reqflow cannot do what httpyac's annotation `name` of `spec` says, and the hint; undefined when it can. */
function httpyacProblem(name: string, spec: RequestSpec): [string, string] | undefined {
  const { [name]: value = '', streaming, protocol } = spec.annotations;
  if (name === 'ratelimit') {
    const problem = rateLimitProblem(value);
    return problem === undefined ? undefined : [problem, 'write # @ratelimit minIdleTime 500, or # @ratelimit slot api max 10 expire 1000'];
  }
  // httpyac drops the proxy whatever the value says: `# @noProxy false` would read as the opposite.
  if (name === 'no-proxy') return value === 'true' ? undefined : ['takes no value', 'write # @noProxy alone'];
  // reqflow streams until the server ends it, --max-events, --stream-timeout or Ctrl-C: httpyac's keepStreaming, for a stream.
  if (streaming === 'true' || ['websocket', 'graphql'].includes(protocol?.toLowerCase() ?? '')) return undefined;
  return ['the request is no stream: it ends with its response', 'add # @streaming true for server-sent events (docs/streaming.md)'];
}

/**
 * httpyac's `# @ratelimit`, `# @noProxy` and `# @keepStreaming` that reqflow cannot honour as
 * written: exit 2 naming the request and its line, before anything of the file is sent.
 */
export function checkHttpyacValues(specs: Iterable<RequestSpec>): void {
  for (const spec of specs) {
    for (const name of Object.keys(HTTPYAC_NAMES)) {
      if (spec.annotations[name] === undefined) continue;
      const problem = httpyacProblem(name, spec);
      if (!problem) continue;
      const value = spec.annotations[name] === 'true' ? '' : ` ${JSON.stringify((spec.annotations[name] as string).slice(0, 40))}`;
      throw new UsageError(`# @${HTTPYAC_NAMES[name]}${value} of request "${spec.name}" (${spec.source.file}:${annotationLine(spec, name)}): ${problem[0]}`, { hint: problem[1] });
    }
  }
}
