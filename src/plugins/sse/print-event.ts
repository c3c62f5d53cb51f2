import { applyFilter } from '../../core/filter.js';
import type { RequestContext, StreamEvent } from '../../core/pipeline.js';
import type { Palette } from '../../core/render/colors.js';
import { activeFilter } from '../../core/render/filtered.js';
import { prettyJson } from '../../core/render/json-text.js';
import { writeMeta } from '../../core/render/meta.js';

type Parsed = { json: true; value: unknown } | { json: false };

function parseData(data: string): Parsed {
  if (data.trim() === '') return { json: false };
  try {
    return { json: true, value: JSON.parse(data) };
  } catch {
    return { json: false };
  }
}

/**
 * Prints one server-sent event, the moment it arrives, in the run's output mode:
 * - pretty: `event: NAME  id: ID` (when present), then the data (JSON pretty-printed);
 * - json: one compact `{"event","id","data"}` object per line (NDJSON);
 * - raw: the data as sent, one event per line.
 * A filter applies to each event's JSON data.
 */
export function eventPrinter(ctx: RequestContext, colors: Palette): (event: StreamEvent) => Promise<void> {
  const filter = activeFilter(ctx);
  let warned = false;
  return async (event) => {
    const parsed = parseData(event.data);
    let value: unknown = parsed.json ? parsed.value : event.data;
    if (filter !== undefined) {
      if (parsed.json) value = await applyFilter(filter, parsed.value);
      else if (!warned) {
        warned = true;
        ctx.warn('an event carries data that is not JSON: the filter applies to JSON data only, so such events are shown unfiltered');
      }
    }
    const filtered = filter !== undefined && parsed.json;
    switch (ctx.options.output) {
      case 'json': {
        const record = { ...(event.event !== undefined ? { event: event.event } : {}), ...(event.id !== undefined ? { id: event.id } : {}), data: value ?? null };
        ctx.output.out(`${JSON.stringify(record)}\n`);
        return;
      }
      case 'raw':
        ctx.output.out(`${filtered ? (typeof value === 'string' ? value : JSON.stringify(value)) : event.data}\n`);
        return;
      default: {
        const label = [event.event !== undefined ? `event: ${event.event}` : '', event.id !== undefined ? `id: ${event.id}` : ''].filter(Boolean).join('  ');
        if (label) writeMeta(ctx, colors.dim(label));
        ctx.output.out(parsed.json ? `${prettyJson(value, colors)}\n` : `${event.data}\n`);
      }
    }
  };
}
