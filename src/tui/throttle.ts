/** Runs an action at most once per interval however often it is asked for (redraws while a stream floods in). */
export class Throttle {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ms: number,
    private readonly action: () => void,
  ) {}

  request(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      delete this.timer;
      this.action();
    }, this.ms);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    delete this.timer;
  }
}
