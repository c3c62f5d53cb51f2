/**
 * `--dry-run` and `--as curl|http`: each request as it would go out — after variables, scripts,
 * auth and transforms — printed instead of sent, secrets masked unless `--show-secrets`.
 */
import type { RequestContext } from '../pipeline/context.js';
import { asCurl } from './as-curl.js';
import { asHttp } from './as-http.js';
import { outgoingRequest, type OutgoingServices } from './outgoing-request.js';
import { shownSecrets } from './secrets-shown.js';

export async function dryRunText(ctx: RequestContext, run: OutgoingServices): Promise<string> {
  const request = await outgoingRequest(ctx, run);
  const shown = shownSecrets(ctx.options.showSecrets === true, ctx.redact);
  return ctx.options.dryRunAs === 'curl' ? asCurl(request, shown) : asHttp(request, shown);
}
