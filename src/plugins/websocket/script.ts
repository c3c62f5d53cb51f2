import type { WebSocketStep } from '../../core/model.js';

/**
 * The body of a JetBrains `WEBSOCKET` request as a script: messages separated by lines that are
 * `===`, and `=== wait-for-server` lines that wait for one message from the server before the
 * next is sent (repeated, for as many messages). Each message's text goes as one text frame,
 * without the line break before its separator.
 */
export type Step = WebSocketStep;

const SEPARATOR = /^===[ \t]*(wait-for-server)?[ \t]*$/;

export function webSocketScript(body: string | undefined): Step[] {
  if (body === undefined || body.trim() === '') return [];
  const steps: Step[] = [];
  let lines: string[] = [];
  const flush = (): void => {
    const text = lines.join('\n');
    if (text.trim() !== '') steps.push({ send: text.replace(/\r?\n$/, '') });
    lines = [];
  };
  for (const line of body.split(/\r?\n/)) {
    const separator = SEPARATOR.exec(line);
    if (!separator) {
      lines.push(line);
      continue;
    }
    flush();
    if (separator[1] !== undefined) steps.push({ wait: true });
  }
  flush();
  return steps;
}
