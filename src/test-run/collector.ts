/**
 * The reporter of `reqflow test`: it shows no bodies, but reads each one (so checks and later
 * requests can use it) and turns every request's outcome into a {@link RequestResult}.
 */
import { resolve } from 'node:path';
import { displayHeaders, displayUrl } from '../core/mask.js';
import { maskSecretFields } from '../core/mask-fields.js';
import type { Reporter, RequestOutcome, RequestView } from '../report/reporter.js';
import type { ResponseInfo } from '../core/model.js';
import { KEPT_BODY_BYTES, type RequestResult, type Timings } from '../report/test-results.js';

/** A JSON body indented as the reports show it; any other text as it is. */
function indented(text: string): string {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(text) as unknown, null, 2);
  } catch {
    return text;
  }
}

function cut(body: Buffer | string | undefined, redact: (text: string) => string): string | undefined {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : body.subarray(0, KEPT_BODY_BYTES).toString('utf8');
  const more = (typeof body === 'string' ? Buffer.byteLength(body) : body.length) > KEPT_BODY_BYTES ? '\n… (cut)' : '';
  return redact(maskSecretFields(indented(text.slice(0, KEPT_BODY_BYTES)))) + more;
}

/**
 * The request's phases, from the times the reporter saw: the headers (`testStartedAt` is when
 * sending began), the body's end (`testBodyEndedAt`), and now, when its work is done. What
 * follows the body — scripts, checks — is never counted as downloading.
 */
function timingsOf(response: ResponseInfo | undefined, state: RequestView['state']): Timings {
  if (!response) return { total: 0 };
  const now = performance.now();
  const started = state.testStartedAt;
  if (typeof started !== 'number') return { firstByte: response.durationMs, total: response.durationMs }; // no reporter call saw it
  const total = now - started;
  const bodyEnded = state.testBodyEndedAt;
  if (typeof bodyEnded !== 'number') return { firstByte: response.durationMs, total }; // the rest is not known
  const download = Math.max(0, bodyEnded - started - response.durationMs);
  return { firstByte: response.durationMs, download, afterBody: Math.max(0, now - bodyEnded), total };
}

function resultOf(outcome: RequestOutcome, ctx: RequestView): RequestResult {
  const { spec, response } = outcome;
  const sent = outcome.sent ?? spec;
  const result: RequestResult = {
    name: spec.name,
    method: sent.method,
    url: displayUrl(sent.url, ctx.redact),
    line: spec.source.line,
    timings: timingsOf(response, ctx.state),
    tests: (outcome.tests ?? []).map((test) => (test.message === undefined ? test : { ...test, message: ctx.redact(test.message) })),
    exitCode: outcome.exitCode,
  };
  if (response) result.status = response.status;
  if (outcome.error) result.error = { message: ctx.redact(outcome.error.message), exitCode: outcome.error.exitCode, ...(outcome.error.hint ? { hint: ctx.redact(outcome.error.hint) } : {}) };
  if (outcome.exitCode !== 0) {
    const requestBody = cut(sent.bodyFile?.stillBodyOf(sent)?.placeholder ?? sent.body, ctx.redact); // a large file named, not read
    result.exchange = { request: { headers: displayHeaders(sent.headers, ctx.redact), ...(requestBody !== undefined ? { body: requestBody } : {}) } };
    if (response) {
      const responseBody = cut(response.body, ctx.redact);
      result.exchange.response = { headers: displayHeaders(response.headers, ctx.redact), ...(responseBody !== undefined ? { body: responseBody } : {}) };
    }
  }
  return result;
}

/** One per file run (`file` absolute, `shown` as it is named): `onRequest` gets each request's result as it ends. */
export function testCollector(file: string, shown: (file: string) => string, onRequest: (result: RequestResult) => void): Reporter {
  return {
    requestStart: () => undefined,
    responseHead: (ctx) => {
      ctx.state.testStartedAt ??= performance.now() - ctx.response.durationMs;
    },
    body: async (ctx, body) => {
      if (body.kind === 'stream') await ctx.readBody(); // kept on the response: checks and later requests read it
      ctx.state.testBodyEndedAt = performance.now();
    },
    streamEnd: (ctx) => {
      ctx.state.testBodyEndedAt = performance.now();
    },
    requestEnd: (outcome, ctx) => {
      const result = resultOf(outcome, ctx);
      if (resolve(outcome.spec.source.file) !== file) result.file = shown(resolve(outcome.spec.source.file));
      onRequest(result);
    },
  };
}
