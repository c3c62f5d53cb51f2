import type { StreamEvent } from './model.js';

/** How a queue slows its source down: a WebSocket's `pause()` and `resume()`. */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

/**
 * Characters of event data held for the reader past which the source is paused: a server that
 * sends faster than the output takes it waits (TCP back-pressure) instead of filling the memory.
 */
const HIGH_WATER_CHARS = 8 * 1024 * 1024;

/**
 * A push-fed async iterable of events: a callback-style source (a WebSocket, graphql-ws) pushes,
 * the renderer pulls. An error is delivered after the events pushed before it. Holding more than
 * {@link HIGH_WATER_CHARS} pauses the source until the reader has taken all of it.
 */
export class EventQueue implements AsyncIterable<StreamEvent> {
  private readonly items: StreamEvent[] = [];
  private held = 0;
  private paused = false;
  private waiter: (() => void) | undefined;
  private done = false;
  private error: unknown;

  constructor(private readonly flow: FlowControl) {}

  push(event: StreamEvent): void {
    if (this.done) return;
    this.items.push(event);
    this.held += event.data.length;
    if (!this.paused && this.held > HIGH_WATER_CHARS) {
      this.paused = true;
      this.flow.pause();
    }
    this.wake();
  }

  end(): void {
    this.done = true;
    this.wake();
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.error = error;
    this.end();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        this.held -= next.data.length;
        yield next;
        continue;
      }
      if (this.paused && !this.done) {
        this.paused = false;
        this.flow.resume();
      }
      if (this.done) {
        if (this.error !== undefined) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}
