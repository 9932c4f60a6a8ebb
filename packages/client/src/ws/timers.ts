/**
 * The timers of one client object, so that `close()` can clear every one of them: a closed
 * client must leave nothing on the event loop (test: ws-book-client.test.ts, "no timer").
 */
export type Timer = ReturnType<typeof setTimeout>;

export class Timers {
  private readonly pending = new Set<Timer>();

  /** Runs `run` once after `ms`, unless cleared first. */
  later(ms: number, run: () => void): Timer {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      run();
    }, ms);
    this.pending.add(timer);
    return timer;
  }

  clear(timer: Timer | undefined): void {
    if (timer === undefined) return;
    clearTimeout(timer);
    this.pending.delete(timer);
  }

  clearAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
