import { type ExactJson, holdsLosslessNumbers, stringifyJson } from '../core/json-exact.js';
import { bodyText, jsonBodyText } from './render/body.js';
import { isJsonResponse } from '../core/content-type.js';
import { unknownCharsetWarning } from './render/charset.js';
import { endRecord, errorRecord, eventRecord, responseRecord, type JsonRecord, testRecord } from './record.js';
import type { BodyPart, Reporter, RequestOutcome, ResponseView } from './reporter.js';
import { visibleJson } from './render/visible.js';

/** A JSON body's text, to go into the record as written (see {@link withRawBody}). */
interface RawJson {
  raw: string;
}

/** Stands for the body in the serialised record until the body's own text replaces it. */
const RAW_BODY = '\u0000reqflow:raw-body';

/**
 * The record line with the body's JSON text in place of its marker: numbers, escapes and all
 * exactly as the server wrote them, and no parse-and-serialise of a large document. Line breaks
 * are all that is taken out: JSON strings cannot hold raw ones, so they are only layout.
 */
function withRawBody(record: JsonRecord, raw: string): string {
  const line = JSON.stringify({ ...record, body: RAW_BODY });
  const at = line.indexOf(JSON.stringify(RAW_BODY));
  return `${line.slice(0, at)}${raw.replace(/[\r\n]+/g, '').trim()}${line.slice(at + JSON.stringify(RAW_BODY).length)}`;
}

/** A body as JSON when it says so and parses, else as text (with a warning for broken JSON). */
async function bodyValue(ctx: ResponseView, body: BodyPart): Promise<ExactJson | RawJson> {
  switch (body.kind) {
    case 'value':
      return { value: body.value, lossless: holdsLosslessNumbers(body.value) };
    case 'graphql':
      return { value: body.value, lossless: false };
    case 'text':
      return { value: bodyText(body.bytes, ctx.response).text, lossless: false };
    case 'stream': {
      const bytes = await ctx.readBody();
      if (isJsonResponse(ctx.response) && bytes.length > 0) {
        const parsed = jsonBodyText(bytes, ctx.response);
        if (parsed.ok) {
          if (parsed.unknownCharset !== undefined) ctx.warn(unknownCharsetWarning(parsed.unknownCharset));
          return { raw: parsed.text };
        }
        ctx.warn(`response of "${ctx.spec.name}" says JSON but ${parsed.reason}; "body" holds it as text`);
      }
      const decoded = bodyText(bytes, ctx.response);
      if (decoded.unknownCharset !== undefined) ctx.warn(unknownCharsetWarning(decoded.unknownCharset));
      return { value: decoded.text, lossless: false };
    }
  }
}

/** `-o json`: one record per line (NDJSON) for every response, stream event, stream end and error. */
export function jsonReporter(printError: (outcome: RequestOutcome) => void): Reporter {
  // Every line: C1 and bidi controls a server sent (in the body, headers, errors) as \u escapes, never raw to a terminal.
  const writeLine = (ctx: Pick<ResponseView, 'output'>, line: string): void => ctx.output.out(`${visibleJson(line)}\n`);
  const write = (ctx: Pick<ResponseView, 'output'>, record: JsonRecord): void => writeLine(ctx, JSON.stringify(record));
  return {
    body: async (ctx, body) => {
      const value = await bodyValue(ctx, body);
      if ('raw' in value) return writeLine(ctx, withRawBody(responseRecord(ctx, undefined), value.raw));
      const record = responseRecord(ctx, value.value);
      let line: string;
      try {
        line = stringifyJson(record, value.lossless); // a filter's result: numbers as the server wrote them
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        // JSON.parse takes 100,000 levels of nesting; JSON.stringify does not: the body as text then.
        ctx.warn(`the body of "${ctx.spec.name}" is nested too deeply to write as JSON; "body" holds it as text`);
        line = JSON.stringify({ ...record, body: bodyText(await ctx.readBody(), ctx.response).text });
      }
      writeLine(ctx, line);
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
