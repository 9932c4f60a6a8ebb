/**
 * Which batch the planner makes next from a market's waiting fills (match order), without I/O.
 *
 * A fill whose order is new on chain carries that order's proof (~305 bytes): a transaction holds
 * two proofs, so it takes two fills of new makers (one taker's order on chain), or one fill whose
 * two orders are both new. A registration (a settle with no fills) also holds two proofs, so
 * registering orders before their fills never takes fewer transactions than carrying the proofs
 * inline, and the planner does not do it. Worked examples (test/family-c/settle-choice.test.ts):
 * one new taker sweeping 24 new makers: 1 transaction with the taker's and the first maker's
 * proofs, then, once it has landed, 12 with two makers each — 13 (registering first: ⌈25 ÷ 2⌉ +
 * ⌈24 ÷ 8⌉ = 16); five fills between ten new traders: 5, one each.
 *
 * - A fill with an order whose proof is in flight (in any batch) waits for that batch to land
 *   rather than carry the proof again;
 * - otherwise the batch is the largest prefix of the fills that do not wait (proofs inline);
 * - a registration only when even the first fill does not fit with its proofs (no lookup table
 *   yet): it carries that fill's orders, and the fill settles once it lands.
 */
import type { PublicKey, VersionedMessage } from '@solana/web3.js';
import { buildSettlementBatch, type SettlementContext, type SettlementFill } from '@pmx/programs';
import { orderStateAddress } from './settle-inputs.js';

export interface BatchChoice {
  kind: 'settle' | 'register';
  fillIds: string[];
  /** Order accounts whose proofs this batch carries (each created when it lands). */
  proves: string[];
  /** The message as planned (placeholder blockhash): the first build reuses it (planned-messages.ts). */
  message: VersionedMessage;
}

export function chooseBatch(
  fills: readonly SettlementFill[],
  ctx: SettlementContext & { programId: PublicKey },
  proving: { has(address: string): boolean },
): BatchChoice | null {
  const waits = (f: SettlementFill) =>
    [f.takerOrder, f.makerOrder].some((o) => {
      const address = orderStateAddress(o.message, ctx.programId);
      return !ctx.orderStates.has(address) && proving.has(address);
    });
  const free = fills.filter((f) => !waits(f));
  if (free.length === 0) return null;
  const batch = buildSettlementBatch(free, ctx);
  const message = batch.transaction.message;
  // A register-only batch (the first fill does not fit even alone) is linked to the first fill.
  if (batch.kind === 'register') return { kind: 'register', fillIds: [free[0]!.fillId], proves: batch.newOrders, message };
  return { kind: 'settle', fillIds: batch.fills.map((f) => f.fillId), proves: batch.newOrders, message };
}
