import { pipeTo } from './render/pipe.js';
import type { Reporter, RequestOutcome } from './reporter.js';

/** A filter's result like `jq -r`: strings unquoted, anything else as JSON. */
function jqRaw(value: unknown, indent?: number): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, indent);
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
          if (res.stream && ctx.output.stream && res.body === undefined) await pipeTo(res.stream, ctx.output.stream);
          else ctx.output.out(await ctx.readBody());
          return;
        }
        case 'value':
          return void ctx.output.out(`${jqRaw(body.value, 2)}\n`);
        case 'graphql':
          return void ctx.output.out(body.filtered ? `${jqRaw(body.value)}\n` : body.bytes);
        case 'text':
          return void ctx.output.out(body.bytes);
      }
    },
    event: (ctx, event) => {
      const text = event.filtered || event.graphql ? jqRaw(event.value) : event.raw;
      ctx.output.out(`${text}\n`);
    },
    requestEnd: (outcome) => {
      if (outcome.error) printError(outcome);
    },
  };
}
