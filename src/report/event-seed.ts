import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';
import { parseJsonExact } from '../core/json-exact.js';
import type { StreamEvent } from '../core/model.js';
import type { EventSeed } from './reporter.js';

/**
 * An event's data (SSE, WebSocket): JSON when it parses, else text. JSON nested past
 * {@link MAX_JSON_DEPTH} levels is text too: printing or writing it as JSON recurses through it
 * and overflowed the call stack (exit 70), as a plain body that deep is shown as text.
 */
export function seedOf(event: StreamEvent): EventSeed {
  const seed: EventSeed = { raw: event.data, ...(event.event !== undefined ? { event: event.event } : {}), ...(event.id !== undefined ? { id: event.id } : {}) };
  if (event.data.trim() !== '') {
    try {
      const { value } = parseJsonExact(event.data);
      if (!nestedDeeperThan(value, MAX_JSON_DEPTH)) seed.json = { value };
    } catch {
      // Plain text data.
    }
  }
  return seed;
}
