/**
 * Which batch the planner makes next from a market's waiting fills (match order), without I/O.
 *
 * A fill whose order is new on chain carries that order's proof (~305 bytes), so a transaction
 * takes one such fill. Registering the new orders first (two per transaction through the market's
 * lookup table) lets their fills travel up to 8 per transaction afterwards. The planner compares
 * the two by transactions:
 *   inline   = the fills that need a proof (one transaction each)
 *   register = ⌈new orders ÷ orders per registration⌉ + ⌈those fills ÷ 8⌉
 * and registers first only when that is fewer. Worked examples (test/family-c/settle-choice.test.ts):
 * one taker sweeping 24 new makers: inline 24, register ⌈25 ÷ 2⌉ + ⌈24 ÷ 8⌉ = 16 → register;
 * five fills between ten new traders: inline 5, register 5 + 1 = 6 → inline.
 *
 * - A fill with an order whose registration is in flight waits for it (it is not settled inline);
 * - registering: as many new orders as fit, linked to the fills it completes (each goes back to
 *   `matched` when it lands, and then settles without proofs);
 * - otherwise: the largest prefix of the fills that do not wait (proofs inline as needed).
 */
import type { PublicKey, VersionedMessage } from '@solana/web3.js';
import { buildRegistrationBatch, buildSettlementBatch, type SettlementContext, type SettlementFill } from '../../../chain/programs/exchange/index.js';
import { orderStateAddress } from './settle-inputs.js';

/** Fills of orders already on chain per settle transaction, as planned (docs/programs.md: 5–8). */
const FILLS_PER_SETTLE = 8;

/** Transactions to settle `fills` fills needing `orders` new orders, registering `perRegistration` at a time first. */
export function registerFirstCost(orders: number, fills: number, perRegistration: number): number {
  return Math.ceil(orders / perRegistration) + Math.ceil(fills / FILLS_PER_SETTLE);
}

export interface BatchChoice {
  kind: 'settle' | 'register';
  fillIds: string[];
  /** Order accounts a registration creates (empty for a settle). */
  registers: string[];
  /** The message as planned (placeholder blockhash): the first build reuses it (planned-messages.ts). */
  message: VersionedMessage;
}

export function chooseBatch(fills: readonly SettlementFill[], ctx: SettlementContext & { programId: PublicKey }, registering: { has(address: string): boolean }): BatchChoice | null {
  const addresses = (f: SettlementFill) => [orderStateAddress(f.takerOrder.message, ctx.programId), orderStateAddress(f.makerOrder.message, ctx.programId)];
  const fresh = new Map<string, string[]>(); // fill id → its orders neither on chain nor registering
  const waits = new Set<string>(); // fills with an order in a registration in flight
  for (const f of fills) {
    const orders = addresses(f);
    fresh.set(f.fillId, [...new Set(orders.filter((a) => !ctx.orderStates.has(a) && !registering.has(a)))]);
    if (orders.some((a) => !ctx.orderStates.has(a) && registering.has(a))) waits.add(f.fillId);
  }
  const needing = fills.filter((f) => fresh.get(f.fillId)!.length > 0);
  const newOrders = new Set(needing.flatMap((f) => fresh.get(f.fillId)!));
  const registration = needing.length > 0 ? buildRegistrationBatch(needing, ctx, registering) : null;
  if (registration && registerFirstCost(newOrders.size, needing.length, registration.newOrders.length) < needing.length) {
    const covered = new Set(registration.newOrders);
    const linked = needing.filter((f) => fresh.get(f.fillId)!.every((a) => covered.has(a)));
    // The first fill's orders come first in a registration, so it is always among the linked.
    return { kind: 'register', fillIds: (linked.length > 0 ? linked : needing.slice(0, 1)).map((f) => f.fillId), registers: registration.newOrders, message: registration.transaction.message };
  }
  const free = fills.filter((f) => !waits.has(f.fillId));
  if (free.length === 0) return null;
  const batch = buildSettlementBatch(free, ctx);
  // A register-only batch (the first fill does not fit even alone) carries the first fill's orders.
  if (batch.kind === 'register') return { kind: 'register', fillIds: [free[0]!.fillId], registers: batch.newOrders, message: batch.transaction.message };
  return { kind: 'settle', fillIds: batch.fills.map((f) => f.fillId), registers: [], message: batch.transaction.message };
}
