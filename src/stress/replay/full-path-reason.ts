/**
 * Whether a stress request may be replayed (sent again as the same bytes) or must go through the
 * whole loop each time, decided from the spec, the run's values and the plugins that took part
 * in one real request — never guessed: anything that could make two requests differ, or that
 * only the loop does per response, sends every request through the loop. The answer is the
 * reason for the full loop, or undefined when the request may be replayed.
 */
import { dotenvValues } from '../../core/environment-search.js';
import type { RequestSpec } from '../../core/model.js';
import { isShellValue } from '../../core/shell.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { RunServices } from '../../pipeline/create-context.js';
import type { Step } from '../../pipeline/plugin.js';

/**
 * The plugins that may take part in a replayed request: built-ins whose work gives the same
 * result every time within a run (the token, key or password of the profile or the session, a
 * client certificate), the default sender and the report hand-off, and `chain` for a request
 * that only refers to others (they ran once, before the clock: specReason keeps the loop for
 * its scripts, checks, captures and forced references, the only work it does per request).
 * Any other plugin — a third-party one, OAuth (refresh), digest and custom auth (nonces,
 * signatures), GraphQL, streams — keeps the full loop.
 */
const REPLAYABLE: Readonly<Record<Step, readonly string[]>> = {
  parse: [],
  substitute: ['chain', 'core-substitute'],
  auth: ['auth-bearer', 'auth-apikey', 'auth-basic', 'auth-basic-shorthand', 'auth-mtls'],
  transform: [],
  send: ['core-http'],
  render: ['core-report'],
  // Token extraction: the replay reads the same bodies and stores the same token (then ends).
  capture: ['capture-token', 'chain'],
  // The session is saved as the loop saves it; a stress run keeps no history.
  persist: ['persist-session'],
};
const STEPS = Object.keys(REPLAYABLE) as Step[];

/**
 * `{{$uuid}}`, `{{ $timestamp }}`, `{{%$x}}`, `{{upper $guid}}`, `{{$input …}}`, `{{$global.x}}`:
 * any system or dynamic value (a JSONPath's `$.` in a reference to a response is not one).
 */
const DYNAMIC_TEMPLATE = /\{\{\s*(?:[^{}\s]+\s+)?%?\s*\$(?![.[])/;

/** A template with a dynamic value, or a shell value (`$(…)`, run for each request). */
function dynamicText(text: string): boolean {
  return DYNAMIC_TEMPLATE.test(text) || isShellValue(text);
}

/** Every string inside a value (a profile, annotations), however deep. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) for (const item of Object.values(value)) strings(item, out);
  return out;
}

/** What the spec itself asks for per request. */
function specReason(spec: RequestSpec): string | undefined {
  const chain = spec.chain;
  if (spec.loop) return 'the request loops (# @loop)';
  if (chain?.scripts && chain.scripts.length > 0) return 'the request has scripts';
  if (chain?.assertions && chain.assertions.length > 0) return 'the request has checks (??)';
  if (chain?.captures && chain.captures.length > 0) return 'the request captures values';
  if (chain?.refs?.some((ref) => ref.force)) return 'the request forces a referred-to request to run again (# @forceRef)';
  if (spec.webSocket || spec.httpVersion === '2') return 'the request is not plain HTTP/1.1';
  if (Object.keys(spec.annotations).some((name) => /^expected/i.test(name))) return 'the request has expectations (expected…)';
  if (spec.bodyParts?.some((part) => part.kind === 'file')) return 'the body includes files (read for each request)';
  return undefined;
}

/**
 * Could a value the request reads change from one request to the next? Every text the request
 * and the run's variables hold is read — not only those the request refers to: a value that
 * refers to a dynamic one is dynamic too, and following references would be the resolver's work.
 */
async function dynamicReason(spec: RequestSpec, ctx: RequestContext, services: RunServices): Promise<string | undefined> {
  const own = [spec.url, ...strings(spec.headers), ...Object.keys(spec.headers), ...(typeof spec.body === 'string' ? [spec.body] : []), ...strings(spec.bodyParts ?? []), ...strings(spec.annotations), ...strings(spec.fileVariables ?? {})];
  if (own.some(dynamicText)) return 'the request uses a dynamic value ({{$…}} or $(…))';
  const values = [...strings(services.options.cliVariables), ...strings(services.environment?.variables ?? {}), ...strings(ctx.profile), ...strings(await dotenvValues(ctx.baseDir))];
  if (values.some(dynamicText)) return 'a variable of the run holds a dynamic value ({{$…}} or $(…))';
  return undefined;
}

/** The plugins that took part in the real request, against the list of those a replay may stand for. */
function pluginReason(ctx: RequestContext, services: RunServices): string | undefined {
  for (const step of STEPS) {
    for (const entry of services.registry.applicable(step, ctx)) {
      if (!entry.builtin || !REPLAYABLE[step].includes(entry.name)) return `the plugin ${entry.name} takes part in it (${step})`;
    }
  }
  return undefined;
}

/**
 * Why the request goes through the loop every time; undefined when it may be replayed. `ctx` is
 * the context of one request of the run that got a response, after every stage.
 */
export async function fullPathReason(spec: RequestSpec, ctx: RequestContext, services: RunServices): Promise<string | undefined> {
  if (ctx.tests && ctx.tests.length > 0) return 'the request has checks';
  if (ctx.response?.httpVersion !== '1.1') return 'the response was not HTTP/1.1';
  if (ctx.response.events !== undefined) return 'the response is a stream of events';
  const coding = ctx.response.headers['content-encoding'];
  if (coding !== undefined && String(coding).trim().toLowerCase() !== 'identity') return 'the response came compressed (the loop decodes it)';
  return specReason(spec) ?? pluginReason(ctx, services) ?? (await dynamicReason(spec, ctx, services));
}
