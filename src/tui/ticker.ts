/** Calls `tick` every `everyMs` while switched on: a live clock that costs nothing when idle. */
export class Ticker {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly everyMs: number,
    private readonly tick: () => void,
  ) {}

  /** On while something runs, off otherwise (idempotent both ways). */
  set(on: boolean): void {
    if (on && !this.timer) {
      this.timer = setInterval(this.tick, this.everyMs);
      this.timer.unref();
    } else if (!on && this.timer) {
      clearInterval(this.timer);
      delete this.timer;
    }
  }

  get running(): boolean {
    return this.timer !== undefined;
  }
}

/** Runs `action` once, `delayMs` after the first of any number of requests: redraws at most that often. */
export class Throttle {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly delayMs: number,
    private readonly action: () => void,
  ) {}

  request(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      delete this.timer;
      this.action();
    }, this.delayMs);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    delete this.timer;
  }
}
