/**
 * `# @auth basic` (or profile `"auth": {"type": "basic"}`): builds
 * `Authorization: Basic base64(username:password)` itself (UTF-8, RFC 7617; no shell needed),
 * unless the request already has an Authorization header.
 *
 * Profile settings (all optional): "username" and "password" templates, by default
 * "{{username}}" and "{{password}}".
 */
import { authSettings, checkHeaderValue, credential, stringSetting } from '../../core/auth-helpers.js';
import { VariableError } from '../../core/errors/index.js';
import { hasHeader, setHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';
import type { RequestContext } from '../../pipeline/context.js';

function missing(ctx: RequestContext, name: 'username' | 'password'): VariableError {
  const prompt = name === 'password' ? ` (or ask for it each run: "password": {"value": "", "interactive": true, "secret": true})` : '';
  return new VariableError(`request "${ctx.spec.name}" uses basic auth but "${name}" is not set`, {
    hint: `pass -e ${name}=..., or add "${name}" to the "variables" of profile "${ctx.profile.name}"${prompt}`,
  });
}

/** A password may legitimately be empty; a username may not, and may not contain ":" (RFC 7617). */
async function credentials(ctx: RequestContext): Promise<{ username: string; password: string }> {
  const settings = authSettings(ctx, 'basic');
  const username = await credential(ctx, { template: stringSetting(ctx, settings, 'username'), variable: 'username', missing: () => missing(ctx, 'username') });
  if (username.includes(':')) {
    throw new VariableError(`basic auth username of request "${ctx.spec.name}" contains ":"`, { hint: 'RFC 7617 forbids ":" in a basic auth user name; check the username variable' });
  }
  const password = await credential(ctx, { template: stringSetting(ctx, settings, 'password'), variable: 'password', missing: () => missing(ctx, 'password'), allowEmpty: true });
  return { username, password };
}

async function addBasic(ctx: RequestContext): Promise<RequestContext> {
  if (hasHeader(ctx.spec.headers, 'Authorization')) return ctx; // the request's own header wins
  const { username, password } = await credentials(ctx);
  const encoded = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
  setHeader(ctx.spec.headers, 'Authorization', checkHeaderValue(ctx, 'Authorization', `Basic ${encoded}`, 'username and password'));
  return ctx;
}

const plugin: Plugin = { name: 'auth-basic', stages: { auth: addBasic } };
export default plugin;
