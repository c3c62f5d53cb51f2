import { UsageError } from '../../core/errors/index.js';
import { isLosslessNumber, parseJsonExact } from '../../core/json-exact.js';
import { annotationLine } from '../../core/request-settings.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { VariableResolver } from '../../core/model.js';

/** `{{var}}` in every string of a YAML/JSON `variables` object (numbers and booleans stay typed, a number kept as written too). */
async function expandStrings(value: unknown, variables: VariableResolver): Promise<unknown> {
  if (typeof value === 'string') return variables.expand(value);
  if (Array.isArray(value)) return Promise.all(value.map((item) => expandStrings(item, variables)));
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value)) {
    // No prototype: a variable named `__proto__` is a key like any other (assigned on `{}`, it was dropped, and sent as `{}`).
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) out[key] = await expandStrings(item, variables);
    return out;
  }
  return value;
}

/**
 * The GraphQL variables of a request: a YAML/JSON `variables` object, then `# @variables {json}`
 * (its keys win). `{{var}}` is substituted first, so `{"id": {{userId}}}` sends a number.
 */
export async function graphqlVariables(ctx: RequestContext): Promise<Record<string, unknown> | undefined> {
  const { spec } = ctx;
  let result: Record<string, unknown> | undefined;
  if (spec.graphqlVariables) result = (await expandStrings(spec.graphqlVariables, ctx.variables)) as Record<string, unknown>;
  const annotation = spec.annotations.variables;
  if (annotation !== undefined && annotation.trim() !== '') {
    const text = await ctx.variables.expand(annotation);
    let parsed: unknown;
    try {
      // Numbers as written: 12345678901234567890 and 1e400 go out as they are (not rounded, not null).
      parsed = parseJsonExact(text).value;
    } catch (error) {
      throw new UsageError(`# @variables of request "${spec.name}" (${spec.source.file}:${annotationLine(spec, 'variables')}) is not valid JSON: ${(error as Error).message}`, {
        hint: `write a JSON object on one line, e.g. # @variables {"id": "1", "withEmail": true}; after substitution it read: ${text.length > 100 ? `${text.slice(0, 97)}...` : text}`,
      });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`# @variables of request "${spec.name}" (${spec.source.file}:${annotationLine(spec, 'variables')}) must be a JSON object`, { hint: 'e.g. # @variables {"id": "1"}' });
    }
    result = { ...result, ...(parsed as Record<string, unknown>) };
  }
  return result;
}
