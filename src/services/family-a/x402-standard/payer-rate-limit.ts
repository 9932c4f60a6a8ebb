/**
 * How many standard payments one payer may present per minute on this API node. Every accepted
 * payment makes the fee payer spend a signature fee; a payment that passes verification and then
 * fails on chain (its payer emptied the account in between) costs the platform that fee and the
 * payer nothing, so a payer's attempts are bounded. Fixed one-minute windows, per node: with N
 * API nodes a payer gets at most N × the limit.
 */
const WINDOW_MS = 60_000;
const MAX_TRACKED = 100_000;

export class PayerRateLimit {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly perMinute: number) {}

  /** Counts one attempt of `payer`; false when its window is already full. */
  take(payer: string, now = Date.now()): boolean {
    if (now - this.windowStart >= WINDOW_MS || this.counts.size >= MAX_TRACKED) {
      this.windowStart = now;
      this.counts.clear();
    }
    const used = this.counts.get(payer) ?? 0;
    if (used >= this.perMinute) return false;
    this.counts.set(payer, used + 1);
    return true;
  }
}
