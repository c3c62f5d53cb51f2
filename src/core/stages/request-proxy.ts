import { UsageError } from '../errors/index.js';
import { ProxyRules } from '../http/proxy.js';
import { annotationLine } from '../request-settings.js';
import type { Plugin } from '../../pipeline/plugin.js';
import type { TransformContext } from '../../pipeline/context.js';

/**
 * httpyac's `# @proxy URL` and `# @noProxy`: this request's own proxy, in place of the run's
 * (`--proxy`, the profile, `*_proxy`). httpyac puts the annotation's proxy on the request and
 * drops every proxy for `noProxy` (`proxyMetaDataHandler.ts`, `excludeProxyInterceptor.ts`): the
 * environment's `no_proxy` does not exempt a host from a proxy the file names, the run's
 * `--noproxy` and the profile's `noProxy` still do (httpyac's `proxyExcludeList`). The URL is a
 * template, resolved like the request's; its credentials are secrets from here on.
 */
export const requestProxyPlugin: Plugin = {
  name: 'request-proxy',
  stages: {
    transform: async (ctx) => {
      const { annotations } = ctx.spec;
      if (annotations['no-proxy'] !== undefined) {
        ctx.proxy = new ProxyRules({ proxy: '', env: {} });
        return;
      }
      const written = annotations.proxy ?? '';
      const where = `# @proxy of request "${ctx.spec.name}" (${ctx.spec.source.file}:${annotationLine(ctx.spec, 'proxy')})`;
      const proxy = (await ctx.variables.expand(written)).trim();
      if (proxy === '') throw new UsageError(`${where} names no proxy`, { hint: 'write # @proxy http://proxy.example:3128, or # @noProxy for none' });
      ctx.proxy = new ProxyRules({ proxy, proxyFrom: where, ...noProxyOf(ctx), env: {} });
      for (const credential of ctx.proxy.credentials()) ctx.addSecret?.(credential);
    },
  },
};

/** The run's own exemptions (`--noproxy`, else the profile's `noProxy`); the environment's are not the file's. */
function noProxyOf(ctx: TransformContext): { noProxy: string; noProxyFrom?: string } {
  if (ctx.options.noProxy !== undefined) return { noProxy: ctx.options.noProxy, noProxyFrom: '--noproxy' };
  if (ctx.profile.noProxy !== undefined) return { noProxy: ctx.profile.noProxy, noProxyFrom: `profile "${ctx.profile.name}": noProxy` };
  return { noProxy: '' };
}
