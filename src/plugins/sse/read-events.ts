import type { Readable } from 'node:stream';
import type { RequestContext } from '../../pipeline/context.js';
import type { ResponseInfo, StreamEvent } from '../../core/model.js';
import { isEventStream } from '../../core/content-type.js';
import { EventStreamParser } from './parser.js';

/** The events of a `text/event-stream` body, each yielded as soon as its blank line arrives. */
async function* readEventStream(stream: Readable): AsyncGenerator<StreamEvent> {
  const parser = new EventStreamParser();
  for await (const chunk of stream as AsyncIterable<Buffer>) yield* parser.push(chunk);
}

/**
 * Sends the request as it stands with a streamed body. A 2xx `text/event-stream` answer gets
 * its `events`; anything else (an error status, a plain document) stays an ordinary response
 * for the renderers.
 */
export async function sendForEvents(ctx: RequestContext): Promise<ResponseInfo> {
  const { spec } = ctx;
  const body = spec.bodyFile?.stillBodyOf(spec) ?? spec.body; // a large file is sent as it is read
  const response = await ctx.http.send({ method: spec.method, url: spec.url, headers: spec.headers, ...(body !== undefined ? { body } : {}), streaming: true });
  if (response.stream && isEventStream(response)) response.events = readEventStream(response.stream);
  return response;
}
