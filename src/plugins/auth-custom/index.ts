/**
 * `# @auth custom` (or profile `"auth": {"type": "custom", ...}`): the profile's own scheme, as
 * templated headers and/or query parameters, e.g. a signed request:
 *
 *   "auth": { "type": "custom", "headers": {
 *     "X-Timestamp": "{{timestamp}}", "X-Signature": "{{signature}}" } }
 *
 * Unlike profile `headers`, these are added only to requests that use the method: every request
 * when the profile's `type` is `custom` (`# @auth none` opts one out), or only those saying
 * `# @auth custom` when the settings sit under `auth.custom`. So shell variables such as a
 * signature run only for them. Every variable is resolved once per request, so the signature sees the very timestamp
 * that is sent. A header or parameter the request sets itself wins.
 */
import { addQueryParam, authSettings, checkHeaderName, checkHeaderValue, hasQueryParam, recordSetting } from '../../core/auth-helpers.js';
import { UsageError } from '../../core/errors/index.js';
import { hasHeader, setHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';
import type { RequestContext } from '../../pipeline/context.js';

async function addCustom(ctx: RequestContext): Promise<RequestContext> {
  const settings = authSettings(ctx, 'custom');
  const headers = recordSetting(ctx, settings, 'headers');
  const query = recordSetting(ctx, settings, 'query');
  if (!headers && !query) {
    throw new UsageError(`request "${ctx.spec.name}" uses custom auth but profile "${ctx.profile.name}" has no custom settings`, {
      hint: 'for every request: "auth": {"type": "custom", "headers": {"X-Custom-Auth": "{{authToken}}"}}; only for # @auth custom: "auth": {"type": "none", "custom": {"headers": {...}}}',
    });
  }
  for (const [name, template] of Object.entries(headers ?? {})) {
    checkHeaderName(ctx, settings, name, `headers.${name}`);
    if (!hasHeader(ctx.spec.headers, name)) setHeader(ctx.spec.headers, name, checkHeaderValue(ctx, name, await ctx.variables.expand(template), template));
  }
  for (const [name, template] of Object.entries(query ?? {})) {
    if (!hasQueryParam(ctx.spec.url, name)) ctx.spec.url = addQueryParam(ctx.spec.url, name, await ctx.variables.expand(template));
  }
  return ctx;
}

const plugin: Plugin = { name: 'auth-custom', stages: { auth: addCustom } };
export default plugin;
