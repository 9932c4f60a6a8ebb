/** Bounds of a candidate batch computed without compiling it: they keep the search's compiles to about one a batch. */
import { ED25519_OFFSETS_SIZE } from '../../solana/ed25519-instruction.js';
import { orderSigningLength } from '../../orderbook/order-message.js';
import type { BatchPlan, OrderSlot } from './batch-plan.js';
import { SETTLE_FILL_BYTES, SETTLE_ORDER_BYTES, SETTLE_TAG_BYTES } from './settle-data.js';
import { SETTLE_ACCOUNTS_PER_ORDER, SETTLE_FIXED_ACCOUNTS } from './settle-instruction.js';

/**
 * Accounts the first `n` fills lock, counted without building anything (compiling a message per
 * candidate costs ~1 ms): the fixed accounts and programs, per order its state account, per
 * owner the smart wallet and its USDC account, per owner and outcome its token account, per
 * fill its receipt. It bounds the binary search over prefix lengths.
 */
export function lockedAccounts(plan: BatchPlan, n: number): number {
  return SETTLE_FIXED_ACCOUNTS + 4 + plan.orderLocks(plan.ordersUsedBy(n)) + n;
}

/**
 * A lower bound of the size of a transaction settling `fills` fills of `orders`, short of the
 * exact size only by its lookup-table section: the operator's signature, the version, header and
 * blockhash, the keys that are never looked up (the operator, the invoked programs — compute
 * budget, exchange, and Ed25519 when a proof travels — and each order's and receipt's account,
 * which the market's tables do not hold: lookup-table.ts), the compute-budget instruction, the
 * settle instruction (an index per account, its data) and each new order's proof (14 bytes of
 * offsets, the key, the signature and the signed `PMX Order:` text). A candidate above the
 * packet size cannot fit, so the search never compiles it, and the largest candidate within the
 * bounds usually fits: most batches compile once (with one new maker per fill, 2 fills are
 * ~1130 bytes by this bound and 1183 compiled; a third passes 1232 either way).
 */
export function minimumSize(orders: readonly OrderSlot[], fills: number): number {
  const settleAccounts = SETTLE_FIXED_ACCOUNTS + SETTLE_ACCOUNTS_PER_ORDER * orders.length + fills;
  const settleData = 8 + SETTLE_TAG_BYTES + 1 + SETTLE_ORDER_BYTES * orders.length + 1 + SETTLE_FILL_BYTES * fills;
  // signature · version, header and three lengths · blockhash · never-looked-up keys
  let bytes = 1 + 64 + (1 + 3 + 3) + 32 + 32 * (3 + orders.length + fills);
  bytes += 8; // compute budget: program index, no accounts, 5 bytes of data
  bytes += 1 + 1 + settleAccounts + 1 + settleData; // settle: program index, accounts, data
  let proofs = 0;
  for (const o of orders) {
    if (!o.needsProof) continue;
    proofs++;
    bytes += ED25519_OFFSETS_SIZE + 32 + 64 + orderSigningLength(o.message);
  }
  // Ed25519: its program key, index, no accounts, a 2-byte data length, the count and padding.
  return proofs > 0 ? bytes + 32 + 1 + 1 + 2 + 2 : bytes;
}

export const prefixSize = (plan: BatchPlan, n: number) => minimumSize(plan.orders.slice(0, plan.ordersUsedBy(n)), n);
