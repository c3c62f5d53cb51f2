/**
 * The requests of a `.http` text all at once, every error worded whole (a header line's too:
 * header-line-hint.ts, and a protocol line's: protocol-line.ts), for what reads such a text off a run's path: the import commands' check of
 * what they write, and the tests. A run parses through the format's parse stage (index.ts).
 */
import type { RequestSpec } from '../../core/model.js';
import { withHeaderLineHint } from './header-line-hint.js';
import { HeaderLineError, indexHttpText } from './parse-http.js';
import { protocolLineError } from './protocol-line.js';
import { ProtocolLineError } from './request-line.js';

export function parseHttpText(text: string, file: string): RequestSpec[] {
  const requests: RequestSpec[] = [];
  try {
    indexHttpText(text, file, (spec) => requests.push(spec));
  } catch (error) {
    throw error instanceof HeaderLineError ? withHeaderLineHint(error) : error instanceof ProtocolLineError ? protocolLineError(error) : error;
  }
  return requests;
}
