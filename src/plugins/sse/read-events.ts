import type { Readable } from 'node:stream';
import type { ResponseInfo, StreamEvent } from '../../core/pipeline.js';
import { contentType } from '../../core/render/body.js';
import { EventStreamParser } from './parser.js';

export function isEventStream(response: ResponseInfo): boolean {
  return contentType(response).split(';')[0]?.trim() === 'text/event-stream';
}

/** The events of a `text/event-stream` body, each yielded as soon as its blank line arrives. */
export async function* readEventStream(stream: Readable): AsyncGenerator<StreamEvent> {
  const parser = new EventStreamParser();
  for await (const chunk of stream as AsyncIterable<Buffer>) yield* parser.push(chunk);
}
