/**
 * Compiles one candidate batch, as
 *
 *   [ComputeBudget.setComputeUnitLimit, Ed25519 (signatures of orders new on chain), settle]
 *
 * and refuses it (null) past the compute budget (1.4M units), the packet size (1232 bytes) or the
 * account-lock limit (64).
 */
import { ComputeBudgetProgram, type PublicKey, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { orderSigningBytes } from '../../orderbook/order-message.js';
import { createEd25519Instruction, type Ed25519Entry } from '../../solana/ed25519-instruction.js';
import { MAX_TX_ACCOUNT_LOCKS, PACKET_DATA_SIZE } from '../../solana/transaction-limits.js';
import { compileV0Message, v0TransactionSize } from '../../solana/v0-message.js';
import type { OrderSlot } from './batch-plan.js';
import { getSettleInstruction, type SettleFillInput, type SettleOrderInput } from './settle-instruction.js';
import type { SettlementContext, SettlementFill } from './settlement-types.js';

export const MAX_COMPUTE_UNITS = 1_400_000;
/**
 * Compute estimates for the deployed (sBPF) program, which the embedded reference does not
 * meter: a token CPI costs ~4.5k units, an ATA or account creation ~10–25k, a PDA search ~1.5k
 * per bump tried. Generous on purpose: an underestimate fails the whole batch on a real cluster.
 */
export const SETTLE_COMPUTE = { base: 40_000, perOrder: 60_000, perNewOrder: 20_000, perFill: 60_000 } as const;

export interface SettlementBatch {
  /** Unsigned; the keeper signs it with the operator and persists the bytes before sending. */
  transaction: VersionedTransaction;
  /** 'settle': carries `fills`; 'register': fills is empty, it only creates the first fill's order accounts. */
  kind: 'settle' | 'register';
  fills: SettlementFill[];
  /** OrderState addresses this transaction creates (their signatures travel in it). */
  newOrders: string[];
  size: number;
  accounts: number;
  computeUnitLimit: number;
}

/** Where the Ed25519 instruction sits: right after the compute budget. */
const PROOF_IX = 1;

/**
 * The signed `PMX Order:` text of each order message, by object (checked against a copy of its
 * bytes): a new order's proof is compiled into each candidate batch and each plan of a group, and
 * its hex text was made again each time.
 */
const signingTexts = new WeakMap<Uint8Array, { bytes: Uint8Array; text: Uint8Array }>();

function signingBytesOf(message: Uint8Array): Uint8Array {
  const known = signingTexts.get(message);
  if (known && Buffer.compare(known.bytes, message) === 0) return known.text;
  const text = orderSigningBytes(message);
  signingTexts.set(message, { bytes: Uint8Array.from(message), text });
  return text;
}

function computeUnits(orders: number, proven: number, fills: number): number {
  return SETTLE_COMPUTE.base + SETTLE_COMPUTE.perOrder * orders + SETTLE_COMPUTE.perNewOrder * proven + SETTLE_COMPUTE.perFill * fills;
}

export function compile(
  ctx: SettlementContext,
  programId: PublicKey,
  orders: OrderSlot[],
  fills: SettleFillInput[],
): Omit<SettlementBatch, 'kind' | 'fills'> | null {
  const proven = orders.filter((o) => o.needsProof);
  const units = computeUnits(orders.length, proven.length, fills.length);
  if (units > MAX_COMPUTE_UNITS) return null;
  const settleOrders: SettleOrderInput[] = orders.map((o) => ({
    owner: o.owner,
    nonce: o.nonce,
    outcome: o.outcome,
    proof: o.needsProof ? { ix: PROOF_IX, entry: proven.indexOf(o) } : undefined,
  }));
  const ixs: TransactionInstruction[] = [ComputeBudgetProgram.setComputeUnitLimit({ units })];
  if (proven.length) {
    const entries: Ed25519Entry[] = proven.map((o) => ({
      publicKey: o.owner.toBytes(),
      signature: o.signature,
      message: signingBytesOf(o.message),
    }));
    ixs.push(createEd25519Instruction(entries));
  }
  ixs.push(
    getSettleInstruction({
      operator: ctx.operator,
      marketUuid: ctx.marketUuid,
      usdcMint: ctx.usdcMint,
      feeWallet: ctx.feeWallet,
      orders: settleOrders,
      fills,
      tag: ctx.tag,
      programId,
    }),
  );
  // Compiled from the keys' bytes (solana/v0-message.ts): web3.js's compiler was most of planning.
  const message = compileV0Message(ctx.operator, ixs, ctx.recentBlockhash, ctx.lookupTables ?? []);
  const size = v0TransactionSize(message);
  const transaction = new VersionedTransaction(message);
  const m = transaction.message;
  const accounts =
    m.staticAccountKeys.length + m.addressTableLookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
  if (size > PACKET_DATA_SIZE || accounts > MAX_TX_ACCOUNT_LOCKS) return null;
  return { transaction, newOrders: proven.map((o) => o.address), size, accounts, computeUnitLimit: units };
}
