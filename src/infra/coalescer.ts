/**
 * Gathers keys that arrive in bursts and hands them on together: the first key of a burst starts
 * a `windowMs` timer, keys that arrive meanwhile join (a key already waiting is not added twice),
 * and a full group of `max` goes at once. Used where each key costs a job: a settlement changes
 * five token accounts at once, and one job re-reading them together costs a fifth of five jobs.
 * Memory only: what it holds is a hint (a change notification), never an acknowledged write.
 *
 * `hold()` stretches a window over work the caller knows will bring more keys (the keeper sending
 * a group of settlement batches, each landing on its own): nothing goes while a hold is on except
 * a full group, and the last release hands on what waits. A hold only delays: every key added is
 * handed on, during the hold at its release, after it in a window of its own.
 */
export class Coalescer {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private holds = 0;

  constructor(
    private readonly flush: (keys: string[]) => void,
    private readonly windowMs = 10,
    private readonly max = 100,
  ) {}

  add(key: string): void {
    this.pending.add(key);
    if (this.pending.size >= this.max) this.drain();
    else this.timer ??= setTimeout(() => this.windowEnded(), this.windowMs);
  }

  /** Keeps the window open until the returned release (each hold released once; the last one hands on). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && this.pending.size > 0) this.drain();
    };
  }

  private windowEnded(): void {
    this.timer = null;
    if (this.holds === 0) this.drain(); // held: the last release drains
  }

  /** Hands on what waits now (also on stop). */
  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const keys = [...this.pending];
    this.pending = new Set();
    this.flush(keys);
  }
}
