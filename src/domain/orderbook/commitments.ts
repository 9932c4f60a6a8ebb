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

export class CommitmentLedger {
  private readonly owners = new Map<string, OwnerCommitment>();

  private entry(owner: string): OwnerCommitment {
    let entry = this.owners.get(owner);
    if (entry === undefined) {
      entry = { usdc: 0n, tokens: new Map() };
      this.owners.set(owner, entry);
    }
    return entry;
  }

  addUsdc(owner: string, delta: bigint): void {
    if (delta === 0n) return;
    const entry = this.entry(owner);
    entry.usdc += delta;
    this.prune(owner, entry);
  }

  addTokens(owner: string, marketId: string, outcome: Outcome, delta: bigint): void {
    if (delta === 0n) return;
    const entry = this.entry(owner);
    const key = `${marketId}:${outcome}`;
    const next = (entry.tokens.get(key) ?? 0n) + delta;
    if (next === 0n) entry.tokens.delete(key);
    else entry.tokens.set(key, next);
    this.prune(owner, entry);
  }

  private prune(owner: string, entry: OwnerCommitment): void {
    if (entry.usdc === 0n && entry.tokens.size === 0) this.owners.delete(owner);
  }

  usdc(owner: string): bigint {
    return this.owners.get(owner)?.usdc ?? 0n;
  }

  tokens(owner: string, marketId: string, outcome: Outcome): bigint {
    return this.owners.get(owner)?.tokens.get(`${marketId}:${outcome}`) ?? 0n;
  }

  /** A copy of every non-zero entry, for tests and diagnostics. */
  entries(): Map<string, OwnerCommitment> {
    const copy = new Map<string, OwnerCommitment>();
    for (const [owner, entry] of this.owners) copy.set(owner, { usdc: entry.usdc, tokens: new Map(entry.tokens) });
    return copy;
  }
}
