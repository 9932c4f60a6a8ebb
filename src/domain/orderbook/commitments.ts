/**
 * Per-owner committed totals, updated incrementally by every book that shares this ledger, so
 * that the service can check `indexed balance − committed ≥ need` without scanning orders.
 *
 * - A resting buy commits `ceil(remaining × priceBps / 10000)` USDC (the public
 *   `committedAmount`). It commits no taker fee: once resting, an order can only ever fill as
 *   maker, which pays no fee (it earns the rebate). The fee hold-back applies to the taking
 *   phase, which is atomic inside `place()`; see `orderNeed` in amounts.ts.
 * - A resting sell commits its `remaining` tokens of its market and outcome.
 * Unsettled fills are not here: the settlement layer holds those from the fills it persisted.
 */
import type { Outcome } from './types.js';

export interface OwnerCommitment {
  usdc: bigint;
  /** Keyed `${marketId}:${outcome}`. */
  tokens: Map<string, bigint>;
}

interface Entry {
  usdc: bigint;
  /** marketId → tokens committed per outcome (no string keys built on the hot path). */
  markets: Map<string, Record<Outcome, bigint>>;
}

export class CommitmentLedger {
  private readonly owners = new Map<string, Entry>();

  private entry(owner: string): Entry {
    let entry = this.owners.get(owner);
    if (entry === undefined) {
      entry = { usdc: 0n, markets: new Map() };
      this.owners.set(owner, entry);
    }
    return entry;
  }

  addUsdc(owner: string, delta: bigint): void {
    if (delta === 0n) return;
    this.entry(owner).usdc += delta;
  }

  addTokens(owner: string, marketId: string, outcome: Outcome, delta: bigint): void {
    if (delta === 0n) return;
    const entry = this.entry(owner);
    let market = entry.markets.get(marketId);
    if (market === undefined) {
      market = { yes: 0n, no: 0n };
      entry.markets.set(marketId, market);
    }
    market[outcome] += delta;
  }

  usdc(owner: string): bigint {
    return this.owners.get(owner)?.usdc ?? 0n;
  }

  tokens(owner: string, marketId: string, outcome: Outcome): bigint {
    return this.owners.get(owner)?.markets.get(marketId)?.[outcome] ?? 0n;
  }

  /** Every owner with a non-zero commitment (zero entries are skipped), for tests and diagnostics. O(owners). */
  entries(): Map<string, OwnerCommitment> {
    const copy = new Map<string, OwnerCommitment>();
    for (const [owner, entry] of this.owners) {
      const tokens = new Map<string, bigint>();
      for (const [marketId, market] of entry.markets) {
        for (const outcome of ['yes', 'no'] as const) if (market[outcome] !== 0n) tokens.set(`${marketId}:${outcome}`, market[outcome]);
      }
      if (entry.usdc !== 0n || tokens.size > 0) copy.set(owner, { usdc: entry.usdc, tokens });
    }
    return copy;
  }
}
