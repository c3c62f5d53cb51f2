/**
 * A run value a script set to `null` — JetBrains' `client.global.set(name, null)` (what
 * `response.headers.valueOf(name)` gives for a header the response lacks), httpyac's
 * `exports.name = null` or `$global.name = null` — sent as httpyac 6.16.7 sends it (recorded on
 * the same server): inside other text its text is `null` (`?q=null`, `Bearer null`, a JSON body's
 * `{"parent": null}`), and a header value or a body that is that one template alone is sent empty,
 * because httpyac's `parseHandlebarsString` hands back the value itself for a template that is the
 * whole text, and nothing goes out for a null. JetBrains' API takes text only (its stubs:
 * `set(varName: string, varValue: string)`); what its client sends for a null could not be checked.
 * Run in the chain's `substitute`, before the core resolves templates (docs/http-dialect.md).
 */
import type { RequestContext } from '../pipeline/context.js';
import type { RunChain } from './chain.js';

/** `{{ name }}` or `{{ $global.name }}` as the whole text: the name. */
const ALONE = /^\{\{\s*(?:\$global\.)?([^\s{}]+)\s*\}\}$/;

/** The names whose value for this request is a script's null: none that `-e`, a loop pass or `request.variables` sets instead. */
function nullNamed(text: string, ctx: RequestContext, chain: RunChain): boolean {
  const name = ALONE.exec(text)?.[1];
  if (name === undefined || chain.globalKinds.get(name) !== 'null' || !chain.variables.has(name)) return false;
  if (Object.hasOwn(ctx.options.cliVariables, name) || ctx.requestVariables?.has(name) === true) return false;
  return !(ctx.spec.loopVariables !== undefined && Object.hasOwn(ctx.spec.loopVariables, name));
}

/** Each header line and the body that is a null's template alone, made empty (every other template resolves to `null` as before). */
export function emptyNullTemplates(ctx: RequestContext, chain: RunChain): void {
  const { spec } = ctx;
  for (const [name, value] of Object.entries(spec.headers)) {
    if (typeof value === 'string') {
      if (nullNamed(value, ctx, chain)) spec.headers[name] = '';
    } else if (value.some((line) => nullNamed(line, ctx, chain))) spec.headers[name] = value.map((line) => (nullNamed(line, ctx, chain) ? '' : line));
  }
  if (typeof spec.body === 'string' && nullNamed(spec.body.trim(), ctx, chain)) spec.body = '';
}
