import { bodyText, isJsonResponse, parseJsonBody } from './render/body.js';
import { endRecord, errorRecord, eventRecord, responseRecord, type JsonRecord, testRecord } from './record.js';
import type { BodyPart, Reporter, RequestOutcome, ResponseView } from './reporter.js';

/** A body as JSON when it says so and parses, else as text (with a warning for broken JSON). */
async function bodyValue(ctx: ResponseView, body: BodyPart): Promise<unknown> {
  switch (body.kind) {
    case 'value':
    case 'graphql':
      return body.value;
    case 'text':
      return bodyText(body.bytes).text;
    case 'stream': {
      const bytes = await ctx.readBody();
      if (isJsonResponse(ctx.response) && bytes.length > 0) {
        const parsed = parseJsonBody(bytes);
        if (parsed.ok) return parsed.value;
        ctx.warn(`response of "${ctx.spec.name}" says JSON but ${parsed.reason}; "body" holds it as text`);
      }
      return bodyText(bytes).text;
    }
  }
}

/** `-o json`: one record per line (NDJSON) for every response, stream event, stream end and error. */
export function jsonReporter(printError: (outcome: RequestOutcome) => void): Reporter {
  const write = (ctx: Pick<ResponseView, 'output'>, record: JsonRecord): void => ctx.output.out(`${JSON.stringify(record)}\n`);
  return {
    body: async (ctx, body) => {
      const record = responseRecord(ctx, await bodyValue(ctx, body));
      let line: string;
      try {
        line = JSON.stringify(record);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        // JSON.parse takes 100,000 levels of nesting; JSON.stringify does not: the body as text then.
        ctx.warn(`the body of "${ctx.spec.name}" is nested too deeply to write as JSON; "body" holds it as text`);
        line = JSON.stringify({ ...record, body: bodyText(await ctx.readBody()).text });
      }
      ctx.output.out(`${line}\n`);
    },
    event: (ctx, event) => write(ctx, eventRecord(ctx, event)),
    streamEnd: (ctx, end) => write(ctx, endRecord(ctx, end)),
    requestEnd: (outcome, ctx) => {
      for (const test of outcome.tests ?? []) write(ctx, testRecord(ctx, test));
      if (!outcome.error) return;
      write(ctx, errorRecord(ctx, outcome.error));
      printError(outcome);
    },
  };
}
