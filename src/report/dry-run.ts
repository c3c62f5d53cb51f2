/**
 * `--dry-run` and `--as curl|http`: each request as it would go out — after variables, scripts,
 * auth and transforms — printed instead of sent, secrets masked unless `--show-secrets`.
 */
import type { RequestContext } from '../pipeline/context.js';
import { asCurl } from './as-curl.js';
import { asHttp } from './as-http.js';
import type { OutputSink } from '../core/model.js';
import { outgoingRequest, type OutgoingServices } from './outgoing-request.js';
import { shownSecrets } from './secrets-shown.js';

/**
 * `output`: where the text goes. Only into a file or a pipe is a `.http` block written with the
 * bytes it would send (controls included, so the saved block sends the same); anywhere else what a
 * terminal acts on is made visible (`reqflow test` reports on a terminal of its own).
 */
export async function dryRunText(ctx: RequestContext, run: OutgoingServices & { output: OutputSink }): Promise<string> {
  const request = await outgoingRequest(ctx, run);
  const shown = shownSecrets(ctx.options.showSecrets === true, ctx.redact);
  const stream = run.output.stream as { isTTY?: boolean } | undefined;
  const terminal = ctx.options.isTerminal || stream === undefined || stream.isTTY === true;
  return ctx.options.dryRunAs === 'curl' ? asCurl(request, shown) : asHttp(request, shown, terminal, ctx.options.dryRunAs === 'http');
}
