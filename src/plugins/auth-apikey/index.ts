/**
 * `# @auth apikey` (or profile `"auth": {"type": "apikey"}`): sends an API key in a header or a
 * query parameter, unless the request already sets that header or parameter.
 *
 * Profile settings (all optional; the defaults are shown):
 *   "in": "header"          or "query"
 *   "header": "X-API-Key"   header name (in: header)
 *   "name": "api_key"       query parameter name (in: query); with in: header, an alias of "header"
 *   "variable": "apiKey"    the variable holding the key
 *   "value": "{{...}}"      a template instead of a variable, e.g. "{{env.API_KEY}}"
 */
import { addQueryParam, authSettings, checkHeaderName, checkHeaderValue, choiceSetting, credential, hasQueryParam, stringSetting } from '../../core/auth-helpers.js';
import { VariableError } from '../../core/errors/index.js';
import { hasHeader, setHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';
import type { RequestContext } from '../../pipeline/context.js';

function missingKey(ctx: RequestContext, variable: string): VariableError {
  return new VariableError(`request "${ctx.spec.name}" uses API key auth but no key is set (variable "${variable}")`, {
    hint: `pass -e ${variable}=..., or add "${variable}" to the "variables" of profile "${ctx.profile.name}" (e.g. "${variable}": "{{env.API_KEY}}")`,
  });
}

async function addApiKey(ctx: RequestContext): Promise<RequestContext> {
  const settings = authSettings(ctx, 'apikey');
  const where = choiceSetting(ctx, settings, 'in', ['header', 'query'], 'header');
  const variable = stringSetting(ctx, settings, 'variable') ?? 'apiKey';
  const template = stringSetting(ctx, settings, 'value');
  const key = (): Promise<string> => credential(ctx, { template, variable, missing: () => missingKey(ctx, variable) });
  if (where === 'query') {
    const name = stringSetting(ctx, settings, 'name') ?? 'api_key';
    if (!hasQueryParam(ctx.spec.url, name)) ctx.spec.url = addQueryParam(ctx.spec.url, name, await key());
    return ctx;
  }
  const header = checkHeaderName(ctx, settings, stringSetting(ctx, settings, 'header') ?? stringSetting(ctx, settings, 'name') ?? 'X-API-Key', 'header');
  if (!hasHeader(ctx.spec.headers, header)) setHeader(ctx.spec.headers, header, checkHeaderValue(ctx, header, await key(), template ?? `variable "${variable}"`));
  return ctx;
}

const plugin: Plugin = { name: 'auth-apikey', stages: { auth: addApiKey } };
export default plugin;
