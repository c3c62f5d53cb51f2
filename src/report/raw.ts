import { stringifyJsonValue } from '../core/json-exact.js';
import { UsageError } from '../core/errors/index.js';
import { isTextual } from './render/body.js';
import { pipeTo } from './render/pipe.js';
import { palette } from './render/colors.js';
import { testLines } from './render/test-lines.js';
import type { GraphqlResultShape, Reporter, RequestOutcome, ResponseView } from './reporter.js';
import { formatGraphqlErrors } from './render/graphql-errors.js';
import { visibleJson } from './render/visible.js';

/**
 * A filter's result like `jq -r`: strings unquoted, anything else as JSON — written by reqflow,
 * so with C1 and bidi controls as `\u` escapes, as every JSON reqflow writes.
 */
function jqRaw(value: unknown, indent?: number): string {
  return typeof value === 'string' ? value : visibleJson(stringifyJsonValue(value, indent) ?? 'undefined');
}

/** A NUL in the first 8,000 bytes (characters of an event's data) is binary whatever Content-Type says (a server may label anything text/plain). */
const holdsNul = (data: Buffer | string): boolean => (typeof data === 'string' ? data.slice(0, 8000).includes('\0') : data.subarray(0, 8000).includes(0));

/** Why `what` (a body, an event's data) is not written to a terminal: it could reprogram it, and nobody reads it there. */
function binaryRefused(what: string, bytes: number): UsageError {
  return new UsageError(`${what} is binary (${bytes} bytes): reqflow does not write it to the terminal`, { hint: 'redirect it to a file (-o raw > file), or pass --force' });
}

/** Raw output to a terminal without --force: binary is refused there, as httpie does (redirect it, or pass --force). */
const guarded = (ctx: ResponseView): boolean => ctx.options.isTerminal && ctx.options.force !== true;

/** Raw bytes on a terminal: text as it is, but a binary body is refused. */
async function writeToTerminal(ctx: ResponseView): Promise<void> {
  const body = await ctx.readBody();
  if (body.length > 0 && (!isTextual(ctx.response, body) || holdsNul(body))) throw binaryRefused(`the body of "${ctx.spec.name}"`, body.length);
  ctx.output.out(body);
}

/** The errors of a GraphQL result whose filtered value stdout shows instead, on stderr. */
function filteredErrors(ctx: ResponseView, result: GraphqlResultShape): void {
  if (Array.isArray(result.errors) && result.errors.length > 0) ctx.output.err(formatGraphqlErrors(result.errors, palette(ctx.options.color)).replace(/\n$/, ''));
}

/**
 * `-o raw`: the body bytes unchanged and streamed (no status line); with a filter its result
 * like `jq -r`; stream events one per line as sent.
 */
export function rawReporter(printError: (outcome: RequestOutcome) => void): Reporter {
  return {
    body: async (ctx, body) => {
      switch (body.kind) {
        case 'stream': {
          const res = ctx.response;
          if (guarded(ctx)) return writeToTerminal(ctx);
          if (res.stream && ctx.output.stream && res.body === undefined) await pipeTo(res.stream, ctx.output.stream);
          else ctx.output.out(await ctx.readBody());
          return;
        }
        case 'value':
          return void ctx.output.out(`${jqRaw(body.value, 2)}\n`);
        case 'graphql':
          // A filter's result leaves the errors out of stdout: they are said on stderr, as they make the exit code 1.
          if (body.filtered) filteredErrors(ctx, body.result);
          return void ctx.output.out(body.filtered ? `${jqRaw(body.value)}\n` : body.bytes);
        case 'text':
          return void ctx.output.out(body.bytes);
      }
    },
    event: (ctx, event) => {
      if (event.graphql && event.filtered) filteredErrors(ctx, event.graphql);
      if (event.filtered || event.graphql) return void ctx.output.out(`${jqRaw(event.value)}\n`);
      // The data as sent, held to a plain body's test on a terminal: the events before it stay written, the stream ends.
      if (guarded(ctx) && holdsNul(event.raw)) throw binaryRefused(`the data of event ${event.seq} of "${ctx.spec.name}"`, Buffer.byteLength(event.raw));
      ctx.output.out(`${event.raw}\n`);
    },
    requestEnd: (outcome, ctx) => {
      // stdout stays the body's; a failed check still says on stderr why the exit code is 1.
      const failed = outcome.tests?.filter((test) => !test.passed) ?? [];
      if (failed.length > 0) ctx.output.err(testLines(failed, palette(ctx.options.color), ctx.redact));
      if (outcome.error) printError(outcome);
    },
  };
}
