/**
 * The settlement bench's floor line (issue 31): how much of a drain the embedded ledger spent
 * landing the keeper's transactions, measured in the same run by wrapping the ledger's
 * `sendRawTransaction`. The rest of the drain is the keeper's own work (planning, DB reads and
 * writes, the jobs a landed transaction triggers), so `fills / ledger seconds` is the fills/s the
 * keeper would reach if its own work were free.
 *
 * Two figures: the plain sum of send durations, and the wall time with at least one send in flight
 * (group commit lets sends overlap; the union never counts one millisecond twice).
 */
import type { EmbeddedLedger } from '@pmx/local-cluster';

export interface LedgerShare {
  sends: number;
  /** Sum of each send's duration, ms. */
  summedMs: number;
  /** Wall time with at least one send in flight, ms. */
  busyMs: number;
}

/** Wraps `ledger.sendRawTransaction` until `stop()`, which restores it and returns what was measured. */
export function measureLedgerShare(ledger: EmbeddedLedger): { stop: () => LedgerShare } {
  const original = ledger.sendRawTransaction;
  const share: LedgerShare = { sends: 0, summedMs: 0, busyMs: 0 };
  let inFlight = 0;
  let busySince = 0;
  ledger.sendRawTransaction = async function timed(this: EmbeddedLedger, ...args) {
    const t0 = performance.now();
    if (inFlight++ === 0) busySince = t0;
    try {
      return await original.apply(this, args);
    } finally {
      const t1 = performance.now();
      share.sends++;
      share.summedMs += t1 - t0;
      if (--inFlight === 0) share.busyMs += t1 - busySince;
    }
  };
  return {
    stop: () => {
      ledger.sendRawTransaction = original;
      return share;
    },
  };
}

/** The bench's line: the ledger's share of the drain and the ceiling if the keeper cost nothing. */
export function describeLedgerShare(share: LedgerShare, drainMs: number, fills: number): string {
  const pct = (ms: number) => `${((100 * ms) / drainMs).toFixed(0)} %`;
  const ceiling = fills / (share.busyMs / 1000);
  return (
    `ledger share of the drain: ${share.sends} sends, busy ${share.busyMs.toFixed(0)} ms (${pct(share.busyMs)}), ` +
    `summed ${share.summedMs.toFixed(0)} ms (${pct(share.summedMs)}) of ${drainMs.toFixed(0)} ms; ` +
    `ceiling with the keeper's own work free: ${ceiling.toFixed(0)} fills/s`
  );
}
