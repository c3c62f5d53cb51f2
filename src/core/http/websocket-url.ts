import { UsageError } from '../errors/index.js';
import { parseRequestUrl } from './send.js';

/** A WebSocket URL: `ws(s)://` as written; `http(s)://` becomes `ws(s)://`. */
export function webSocketUrl(text: string): URL {
  if (/^wss?:\/\//i.test(text)) {
    try {
      return new URL(text);
    } catch {
      throw new UsageError(`not a valid URL: "${text}"`);
    }
  }
  const url = parseRequestUrl(text);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url;
}
