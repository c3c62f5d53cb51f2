import { ReqflowError, type ExitCodeValue } from '../core/errors/index.js';
import type { HistoryEntry } from '../history/entry.js';
import { cutFields } from '../history/format.js';
import type { RequestSpec } from '../core/model.js';
import { palette } from '../report/render/colors.js';
import { prettyJson } from '../report/render/json-text.js';
import type { Exchange } from './exchange.js';
import type { Catalog } from './catalog.js';
import { ResponseCapture } from './response-capture.js';

/** The request of a stored send: the catalog's when it is still there, else one made from the entry. */
function specOf(entry: HistoryEntry, catalog: Catalog): RequestSpec {
  const known = catalog.files.find((file) => file.path === entry.file)?.specs.find((spec) => spec.name === entry.name);
  return known ?? { name: entry.name, method: entry.method, url: entry.url, headers: {}, annotations: {}, source: { file: entry.file, line: entry.line } };
}

/**
 * A send from the history as an exchange the response pane shows: its status, headers and body
 * as stored (masked; the first 64 KiB of a body; a binary body is not kept).
 */
export function restoredExchange(entry: HistoryEntry, catalog: Catalog): Exchange {
  const capture = new ResponseCapture();
  const colors = palette(true);
  const exchange: Exchange = { spec: specOf(entry, catalog), file: entry.file, capture, controller: new AbortController(), startedAt: 0, context: '', ranFirst: [], restored: entry.time };
  // Shown above the response, as the warnings of a send are.
  if (entry.cut) capture.warnings.push(`the history kept only the beginning of ${cutFields(entry.cut)}`);
  if (entry.error) {
    const error = new ReqflowError(entry.error.message, { exitCode: entry.error.exitCode as ExitCodeValue | undefined });
    exchange.outcome = { spec: exchange.spec, error, exitCode: error.exitCode };
    if (entry.error.exitCode === undefined) exchange.exitUnrecorded = true;
  }
  const response = entry.response;
  if (!response || entry.status === undefined) return exchange;
  capture.setResponse({ status: entry.status, statusText: response.statusText, httpVersion: '1.1', headers: response.headers, durationMs: entry.durationMs, size: entry.size });
  if (response.binary) {
    capture.out(colors.dim(`[binary body, ${entry.size} bytes: the history does not keep it]\n`));
    return exchange;
  }
  const text = response.body ?? '';
  capture.keepBody(Buffer.from(text, 'utf8'));
  capture.copySource = text;
  let shown = text;
  try {
    shown = prettyJson(JSON.parse(text), colors);
  } catch {
    // not JSON: shown as stored
  }
  capture.out(shown === '' ? colors.dim('(empty body)') : shown.endsWith('\n') ? shown : `${shown}\n`);
  if (response.cut) capture.out(colors.dim(`… the history keeps the first 64 KiB of ${entry.size} bytes\n`));
  return exchange;
}
