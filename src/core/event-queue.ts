import type { StreamEvent } from './model.js';

/**
 * A push-fed async iterable of events: a callback-style source (graphql-ws) pushes, the
 * renderer pulls. An error is delivered after the events pushed before it.
 */
export class EventQueue implements AsyncIterable<StreamEvent> {
  private readonly items: StreamEvent[] = [];
  private waiter: (() => void) | undefined;
  private done = false;
  private error: unknown;

  push(event: StreamEvent): void {
    if (this.done) return;
    this.items.push(event);
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
        yield next;
        continue;
      }
      if (this.done) {
        if (this.error !== undefined) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}
