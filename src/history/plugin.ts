import { bodyHead } from '../core/token-extraction.js';
import type { Plugin } from '../pipeline/plugin.js';
import { HISTORY_BODY_LIMIT, type RecordedExchange } from './entry.js';

/** The request body as sent, at most the history's limit (a copy when cut: the rest is not kept alive). */
function bodyToKeep(body: string | Buffer): string | Buffer {
  if (body.length <= HISTORY_BODY_LIMIT) return body;
  return typeof body === 'string' ? Buffer.from(body.slice(0, HISTORY_BODY_LIMIT)) : Buffer.from(body.subarray(0, HISTORY_BODY_LIMIT));
}

/**
 * The history hook: every request that was sent is added to the run's history (`ctx.history`),
 * as it is — masking and writing happen once, when the run ends (`src/history/write.ts`), so
 * a request pays only for this.
 */
export const historyPlugin: Plugin = {
  name: 'history',
  stages: {
    persist: (ctx) => {
      if (!ctx.history || !ctx.timing) return; // never sent: nothing to keep
      const { spec, response } = ctx;
      // JetBrains' `# @no-log`: the request is kept out of the history.
      if (spec.annotations['no-log'] !== undefined) return;
      const file = spec.bodyFile?.stillBodyOf(spec); // sent from its file: named, not read
      const exchange: RecordedExchange = {
        startedAt: ctx.timing.startedAt,
        durationMs: ctx.timing.durationMs,
        file: spec.source.file,
        name: spec.name,
        line: spec.source.line,
        method: spec.method,
        url: spec.url,
        requestHeaders: spec.headers,
        requestSize: file ? file.byteLength : spec.body === undefined ? 0 : typeof spec.body === 'string' ? Buffer.byteLength(spec.body) : spec.body.length,
      };
      if (file) exchange.requestFile = file.shown;
      else if (spec.body !== undefined) exchange.requestBody = bodyToKeep(spec.body);
      if (response) {
        // Trailers are bounded by the transport (16 KiB over HTTP/1.1, the header list's 64 KiB over HTTP/2): within the history's limits, never cut.
        exchange.response = { status: response.status, statusText: response.statusText, headers: response.headers, trailers: response.trailers, size: response.size };
        const body = bodyHead(response, HISTORY_BODY_LIMIT);
        if (body) exchange.response.body = body;
      }
      if (ctx.error) exchange.error = { message: ctx.error.message, exitCode: ctx.error.exitCode };
      ctx.history.add(exchange);
    },
  },
};
