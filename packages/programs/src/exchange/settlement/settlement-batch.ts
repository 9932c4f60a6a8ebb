/**
 * Pure transaction assembly for the settlement keeper: the largest prefix of the given fills that
 * one v0 transaction carries, within the packet size (1232 bytes), the account-lock limit (64)
 * and the compute budget (1.4M units), as
 *
 *   [ComputeBudget.setComputeUnitLimit, Ed25519 (signatures of orders new on chain), settle]
 *
 * for the operator (fee payer, only signer) and a recent blockhash. When even the first fill
 * does not fit with its orders' signatures, the batch registers orders only (a settle with no
 * fills: the first fill's new orders first, then the next fills' as room allows); once it
 * lands, the fill fits without them. Re-sending a registration is harmless. docs/programs.md, "Settlement
 * batches", has the sizes reached.
 */
import type { PublicKey } from '@solana/web3.js';
import { MAX_TX_ACCOUNT_LOCKS, PACKET_DATA_SIZE } from '../../solana/transaction-limits.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { lockedAccounts, minimumSize, prefixSize } from './batch-bounds.js';
import { compile, type SettlementBatch } from './batch-compile.js';
import { planOf, type OrderSlot } from './batch-plan.js';
import { SettlementAssemblyError, type SettlementContext, type SettlementFill } from './settlement-types.js';

export { MAX_COMPUTE_UNITS, SETTLE_COMPUTE, type SettlementBatch } from './batch-compile.js';

/** The largest prefix of `fills` that fits one transaction (see the module comment). */
export function buildSettlementBatch(fills: readonly SettlementFill[], ctx: SettlementContext): SettlementBatch {
  if (fills.length === 0) throw new SettlementAssemblyError('NOTHING_FITS', null, 'no fills to settle');
  const programId = ctx.programId ?? EXCHANGE_PROGRAM_ID;
  // The first prefix past either bound ends the candidates (the search below may still refuse it).
  const plan = planOf(
    fills,
    ctx,
    programId,
    (p) => lockedAccounts(p, p.fills.length) > MAX_TX_ACCOUNT_LOCKS || prefixSize(p, p.fills.length) > PACKET_DATA_SIZE,
  );
  const build = (n: number): SettlementBatch | null => {
    const built = compile(ctx, programId, plan.orders.slice(0, plan.ordersUsedBy(n)), plan.fills.slice(0, n));
    return built && { ...built, kind: 'settle', fills: fills.slice(0, n) };
  };
  // The largest prefix within both bounds usually fits (they are tight): compile it first. Else a
  // binary search below it for the largest prefix that compiles within every limit (fitting is monotone).
  let hi = plan.fills.length;
  while (hi > 1 && (lockedAccounts(plan, hi) > MAX_TX_ACCOUNT_LOCKS || prefixSize(plan, hi) > PACKET_DATA_SIZE)) hi--;
  let best = build(hi);
  if (best) return best;
  let lo = 1;
  hi--;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = build(mid);
    if (b) {
      best = b;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best) return best;
  // The first fill does not fit with its orders' signatures: register new orders of these fills,
  // the first fill's first, as many as one transaction carries.
  const registration = registrationOf(ctx, programId, plan.orders.slice(0, plan.ordersUsedBy(Math.min(plan.fills.length, 8))));
  if (registration) return registration;
  throw new SettlementAssemblyError('NOTHING_FITS', fills[0]!.fillId, `fill ${fills[0]!.fillId} fits no transaction`);
}

/** A settle with no fills carrying the proofs of as many of `orders`' new ones as fit (first ones first). */
function registrationOf(ctx: SettlementContext, programId: PublicKey, orders: readonly OrderSlot[]): SettlementBatch | null {
  const fresh = orders.filter((o) => o.needsProof);
  // The size bound gives the most that could fit; compile downwards from there (usually once).
  let most = 0;
  while (most < fresh.length && minimumSize(fresh.slice(0, most + 1), 0) <= PACKET_DATA_SIZE) most++;
  for (let n = most; n >= 1; n--) {
    const built = compile(ctx, programId, fresh.slice(0, n), []);
    if (built) return { ...built, kind: 'register', fills: [] };
  }
  return null;
}
