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
 *
 * The totals live in exact double-pair slots (wide-totals.ts), one per owner (USDC) and one per
 * owner, market and outcome (tokens): a resting order remembers its slot, so a change of its
 * commitment is one add of a number into typed arrays — no lookup and no bigint allocated (a
 * bigint field of a long-lived object was ~15 % of place time; a BigUint64Array slot still
 * allocated two bigints per change).
 */
import type { Outcome } from './types.js';
import { WideTotals } from './wide-totals.js';

export interface OwnerCommitment {
  usdc: bigint;
  /** Keyed `${marketId}:${outcome}`. */
  tokens: Map<string, bigint>;
}

interface Owner {
  usdcSlot: number;
  /** marketId → the slot of its YES total (NO is the next one). */
  markets: Map<string, number>;
}

/** A growable array of exact totals. */
class Slots {
  values = new WideTotals(1024);
  used = 0;

  take(count: number): number {
    if (this.used + count > this.values.length) this.values = this.values.grown(this.values.length * 2);
    const slot = this.used;
    this.used += count;
    return slot;
  }
}

export class CommitmentLedger {
  private readonly owners = new Map<string, Owner>();
  private readonly slots = new Slots();

  private owner(owner: string): Owner {
    let entry = this.owners.get(owner);
    if (entry === undefined) {
      entry = { usdcSlot: this.slots.take(1), markets: new Map() };
      this.owners.set(owner, entry);
    }
    return entry;
  }

  /** The slot of an owner's USDC total (a resting buy keeps it). */
  usdcSlot(owner: string): number {
    return this.owner(owner).usdcSlot;
  }

  /** The slot of an owner's committed tokens of one market and outcome (a resting sell keeps it); NO's slot is always YES's + 1. */
  tokenSlot(owner: string, marketId: string, outcome: Outcome): number {
    const entry = this.owner(owner);
    let yes = entry.markets.get(marketId);
    if (yes === undefined) {
      yes = this.slots.take(2);
      entry.markets.set(marketId, yes);
    }
    return outcome === 'yes' ? yes : yes + 1;
  }

  /** Adds `delta` (an integer below 2^52 in magnitude; negative to release) to the total in `slot`. */
  addAt(slot: number, delta: number): void {
    this.slots.values.add(slot, delta);
  }

  usdc(owner: string): bigint {
    const entry = this.owners.get(owner);
    return entry ? this.slots.values.get(entry.usdcSlot) : 0n;
  }

  tokens(owner: string, marketId: string, outcome: Outcome): bigint {
    const yes = this.owners.get(owner)?.markets.get(marketId);
    return yes === undefined ? 0n : this.slots.values.get(outcome === 'yes' ? yes : yes + 1);
  }

  /** Every owner with a non-zero commitment (zero entries are skipped), for tests and diagnostics. O(owners). */
  entries(): Map<string, OwnerCommitment> {
    const copy = new Map<string, OwnerCommitment>();
    const values = this.slots.values;
    for (const [owner, entry] of this.owners) {
      const tokens = new Map<string, bigint>();
      for (const [marketId, yes] of entry.markets) {
        if (!values.isZero(yes)) tokens.set(`${marketId}:yes`, values.get(yes));
        if (!values.isZero(yes + 1)) tokens.set(`${marketId}:no`, values.get(yes + 1));
      }
      const usdc = values.get(entry.usdcSlot);
      if (usdc !== 0n || tokens.size > 0) copy.set(owner, { usdc, tokens });
    }
    return copy;
  }
}
