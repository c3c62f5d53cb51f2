/**
 * restcli's `.ws` files: one WebSocket connection and its messages.
 *
 *   WEBSOCKET ws://localhost:8080/chat
 *   Authorization: Bearer {{token}}
 *   # @subprotocol chat.v1
 *
 *   ### Ping
 *   # @type json            (text, json or binary)
 *   # @timeout 5            (seconds to wait at `<`)
 *   > {"type": "ping"}      (the message: this line and the ones below it, up to `<` or ###)
 *   <                       (wait for one message from the server)
 *
 * The connection becomes one request (protocol `websocket`) whose steps are the messages and
 * waits in file order; anything reqflow cannot read is an error naming the line.
 */
import { basename } from 'node:path';
import { ParseError } from '../../core/errors/index.js';
import { appendHeader, hasHeader, singleFieldRule } from '../../core/headers.js';
import type { RequestSpec, WebSocketStep } from '../../core/model.js';

const HEADER = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+):\s*(.*)$/;
const ANNOTATION = /^(?:#|\/\/)\s*@([\w.-]+)\s*(.*)$/;
const COMMENT = /^\s*(?:#|\/\/)/;
const TYPES = new Set(['text', 'json', 'binary']);

export function parseWsText(text: string, file: string): RequestSpec[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let i = 0;
  while (i < lines.length && ((lines[i] as string).trim() === '' || (COMMENT.test(lines[i] as string) && !ANNOTATION.test(lines[i] as string)))) i++;
  const first = (lines[i] ?? '').trim();
  const opening = /^WEBSOCKET\s+(\S+)$/i.exec(first);
  if (!opening) throw new ParseError(file, i + 1, 1, `expected "WEBSOCKET url", got ${JSON.stringify(first.slice(0, 60))}`, { hint: 'a .ws file starts with: WEBSOCKET ws://host/path' });
  const spec: RequestSpec = { name: basename(file).replace(/\.ws$/i, ''), method: 'GET', url: opening[1] as string, headers: {}, annotations: Object.assign(Object.create(null) as Record<string, string>, { protocol: 'websocket' }), source: { file, line: i + 1 } }; // no prototype: `# @__proto__` kept (and said to be unknown), never dropped
  const steps: WebSocketStep[] = [];
  let subprotocol: string | undefined;
  // Connection-level lines: headers and `# @subprotocol`, up to the first ###.
  for (i++; i < lines.length && !(lines[i] as string).startsWith('###'); i++) {
    const line = (lines[i] as string).trim();
    const annotation = ANNOTATION.exec(line);
    if (annotation) {
      if (annotation[1] === 'subprotocol') subprotocol = (annotation[2] as string).trim();
      else spec.annotations[annotation[1] as string] = (annotation[2] as string).trim();
      continue;
    }
    if (line === '' || COMMENT.test(line)) continue;
    const header = HEADER.exec(line);
    if (!header) throw new ParseError(file, i + 1, 1, `expected a header or ### before the messages, got ${JSON.stringify(line.slice(0, 60))}`);
    const once = hasHeader(spec.headers, header[1] as string) ? singleFieldRule(header[1] as string) : undefined;
    if (once !== undefined) throw new ParseError(file, i + 1, 1, `${header[1] as string} is written twice: ${once}`);
    appendHeader(spec.headers, header[1] as string, (header[2] as string).trim());
  }
  // Message blocks.
  while (i < lines.length) {
    const name = (lines[i] as string).replace(/^###\s*/, '').trim() || undefined;
    let type = 'text';
    let timeoutMs: number | undefined;
    for (i++; i < lines.length && !(lines[i] as string).startsWith('###'); i++) {
      const line = lines[i] as string;
      const annotation = ANNOTATION.exec(line.trim());
      if (annotation) {
        const value = (annotation[2] as string).trim();
        if (annotation[1] === 'type') {
          if (!TYPES.has(value)) throw new ParseError(file, i + 1, 1, `# @type must be text, json or binary, got ${JSON.stringify(value.slice(0, 40))}`);
          type = value;
        } else if (annotation[1] === 'timeout') {
          if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new ParseError(file, i + 1, 1, `# @timeout expects seconds, got ${JSON.stringify(value.slice(0, 40))}`);
          timeoutMs = Math.round(Number(value) * 1000);
        } else throw new ParseError(file, i + 1, 1, `unknown annotation # @${annotation[1] as string} in a message`, { hint: 'a message takes # @type and # @timeout' });
        continue;
      }
      if (line.trim() === '<') {
        steps.push({ wait: true, afterSend: true, ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(name ? { name } : {}) });
        continue;
      }
      if (line.startsWith('>')) {
        const start = i;
        const body = [line.slice(1).replace(/^ /, '')];
        while (i + 1 < lines.length && !(lines[i + 1] as string).startsWith('###') && (lines[i + 1] as string).trim() !== '<' && !(lines[i + 1] as string).startsWith('>')) body.push(lines[++i] as string);
        while (body.length > 1 && (body.at(-1) as string).trim() === '') body.pop();
        steps.push({ send: body.join('\n'), ...(type === 'binary' ? { binary: true } : {}), ...(type === 'json' ? { json: true } : {}), ...(name ? { name } : {}), line: start + 1 });
        continue;
      }
      if (line.trim() === '' || COMMENT.test(line)) continue;
      throw new ParseError(file, i + 1, 1, `expected "> message", "<" or ### in a message block, got ${JSON.stringify(line.trim().slice(0, 60))}`);
    }
  }
  spec.webSocket = { steps, ...(subprotocol ? { subprotocol } : {}) };
  return [spec];
}
