import { ExitCode, ReqflowError } from '../errors/index.js';
import { applyFilter } from '../filter.js';
import type { RequestContext } from '../pipeline.js';
import { parseJsonBody } from './body.js';

/** `--filter` wins over the request's `# @filter`. */
export function activeFilter(ctx: RequestContext): string | undefined {
  return ctx.options.filter ?? ctx.spec.annotations.filter;
}

/** The whole JSON document of the response; a body that is not JSON is exit 1 naming why. */
export async function responseJson(ctx: RequestContext): Promise<unknown> {
  const parsed = parseJsonBody(await ctx.readBody());
  if (!parsed.ok) {
    throw new ReqflowError(`cannot apply the filter to the response of "${ctx.spec.name}": ${parsed.reason}`, { exitCode: ExitCode.httpFailure, hint: 'filters apply to JSON responses only' });
  }
  return parsed.value;
}

export async function filteredJson(ctx: RequestContext, filter: string): Promise<unknown> {
  return applyFilter(filter, await responseJson(ctx));
}
