/**
 * `# @auth bearer` (or profile `"auth": {"type": "bearer"}`): adds `Authorization: Bearer <token>`
 * unless the request already has an Authorization header.
 *
 * Profile settings (all optional):
 *   "variable": "token"   the variable holding the token (-e, session, profile variables)
 *   "token": "{{...}}"    a template instead of a variable, e.g. "{{env.GITHUB_TOKEN}}"
 *   "scheme": "Bearer"    the word before the token (some APIs want "Token")
 */
import { authSettings, checkHeaderValue, credential, stringSetting } from '../../core/auth-helpers.js';
import { VariableError } from '../../core/errors/index.js';
import { hasHeader, setHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';
import type { RequestContext } from '../../pipeline/context.js';

function missingToken(ctx: RequestContext, variable: string): VariableError {
  const login = ctx.profile.oauth ? `reqflow oauth login -p ${ctx.profile.name}` : 'reqflow oauth login';
  return new VariableError(`request "${ctx.spec.name}" uses bearer auth but no token is set (variable "${variable}")`, {
    hint: `pass -e ${variable}=..., add "${variable}" to the "variables" of profile "${ctx.profile.name}", or fill the session: run a login request first (its JSON "token", "accessToken" or "access_token" is kept) or ${login}`,
  });
}

async function addBearer(ctx: RequestContext): Promise<RequestContext> {
  if (hasHeader(ctx.spec.headers, 'Authorization')) return ctx; // the request's own header wins
  const settings = authSettings(ctx, 'bearer');
  const variable = stringSetting(ctx, settings, 'variable') ?? 'token';
  const template = stringSetting(ctx, settings, 'token');
  const scheme = stringSetting(ctx, settings, 'scheme') ?? 'Bearer';
  const token = await credential(ctx, { template, variable, missing: () => missingToken(ctx, variable) });
  setHeader(ctx.spec.headers, 'Authorization', checkHeaderValue(ctx, 'Authorization', `${scheme} ${token}`, template ?? `variable "${variable}"`));
  return ctx;
}

const plugin: Plugin = { name: 'auth-bearer', stages: { auth: addBearer } };
export default plugin;
