import type { BodyPart, WebSocketStep } from '../../core/model.js';

/**
 * The body of a JetBrains `WEBSOCKET` request as a script: messages separated by lines that are
 * `===`, and `=== wait-for-server` lines that wait for one message from the server before the
 * next is sent (repeated, for as many messages). Each message goes without the line break
 * before its separator. A message with included files (`< ./msg.bin`, `<@ ./msg.json`) keeps
 * its parts, read when it is sent; separators are only ever the request file's own lines.
 */
export type Step = WebSocketStep;

const SEPARATOR = /^===[ \t]*(wait-for-server)?[ \t]*$/;

export function webSocketScript(body: string | readonly BodyPart[] | undefined): Step[] {
  const parts: readonly BodyPart[] = typeof body === 'string' ? [{ kind: 'text', text: body }] : (body ?? []);
  const steps: Step[] = [];
  let message: BodyPart[] = [];
  const addText = (text: string): void => {
    const last = message.at(-1);
    if (last?.kind === 'text') last.text += text;
    else message.push({ kind: 'text', text });
  };
  const flush = (): void => {
    const last = message.at(-1);
    if (last?.kind === 'text') last.text = last.text.replace(/\n$/, '');
    const kept = message.filter((part) => part.kind === 'file' || part.text !== '');
    if (kept.some((part) => part.kind === 'file')) steps.push({ send: '', parts: kept });
    else {
      const text = kept.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      if (text.trim() !== '') steps.push({ send: text });
    }
    message = [];
  };
  for (const part of parts) {
    if (part.kind === 'file') {
      message.push({ ...part });
      continue;
    }
    // Line by line, ends kept (CRLF as LF): text around an included file joins as written.
    for (const line of part.text.split(/(?<=\n)/)) {
      const separator = SEPARATOR.exec(line.replace(/\r?\n$/, ''));
      if (!separator) {
        addText(line.replace(/\r\n$/, '\n'));
        continue;
      }
      flush();
      if (separator[1] !== undefined) steps.push({ wait: true });
    }
  }
  flush();
  return steps;
}
