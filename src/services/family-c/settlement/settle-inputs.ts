/**
 * What a settlement transaction is built from: the fills with both signed orders (from the
 * database), and the chain's state of their orders (OrderState accounts: an order already on
 * chain needs no signature in the transaction) and of their receipts (a fill with a receipt has
 * settled; it must never travel again).
 */
import { PublicKey } from '@solana/web3.js';
import { normalizeFill, type FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { signedOrders } from '../../../../db/repositories/clob-orders.repository.js';
import type { TokenAccountRow } from '../../../../db/repositories/token-accounts.repository.js';
import {
  addressOf,
  decodeFillReceipt,
  decodeOrderState,
  type FillReceiptAccount,
  findEscrowTokenAddress,
  findFillReceiptPda,
  findOrderStatePda,
  type OrderStateAccount,
  type SettlementFill,
} from '@pmx/programs';
import { decodeOrderMessage } from '../../../domain/orderbook/index.js';
import { decodeTokenAccountSnapshot } from '../../token-account-index.js';
import type { FamilyCContext } from '../context.js';

/** An order's signed bytes never change: remembered by id, per database (bounded, oldest out first). */
const SIGNED_KEPT = 8_192;
const signedKept = new WeakMap<object, Map<string, { message: Buffer; signature: Buffer }>>();

/**
 * The signed orders of these ids, those read before from memory: a planning pass reads the orders
 * of every waiting fill, most of them the last pass's too. The same Buffer each time also keeps
 * `orderStateAddress`'s memo (by message object) from missing on every pass.
 */
async function signedOrderBytes(
  db: FamilyCContext['db'],
  ids: readonly string[],
): Promise<Map<string, { message: Buffer; signature: Buffer }>> {
  let kept = signedKept.get(db);
  if (!kept) signedKept.set(db, (kept = new Map()));
  const missing = ids.filter((id) => !kept.has(id));
  for (const [id, o] of await signedOrders(db, missing)) {
    if (kept.size >= SIGNED_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(id, { message: Buffer.from(o.message, 'hex'), signature: Buffer.from(o.signature, 'base64') });
  }
  return kept;
}

export async function settlementFills(ctx: Pick<FamilyCContext, 'db'>, rows: FillRow[]): Promise<SettlementFill[]> {
  const orders = await signedOrderBytes(ctx.db, [...new Set(rows.flatMap((r) => [r.maker_order_id, r.taker_order_id]))]);
  return rows.map((row) => {
    const f = normalizeFill(row);
    const signed = (id: string) => {
      const o = orders.get(id);
      if (!o) throw new Error(`fill ${f.id}: order ${id} is not in the database`);
      return o;
    };
    return {
      fillId: f.id,
      fillType: f.fill_type,
      quantity: f.quantity,
      takerOrder: signed(f.taker_order_id),
      makerOrder: signed(f.maker_order_id),
      usdcAmount: f.usdc_amount,
      makerUsdc: f.maker_usdc,
      takerFee: f.taker_fee,
      makerRebate: f.maker_rebate,
      protocolFee: f.protocol_fee,
      roundingDust: f.rounding_dust,
    };
  });
}

const addresses = new WeakMap<Uint8Array, { programId: PublicKey; address: string }>();

/**
 * The address of a signed order's OrderState account (the program names refused orders by it).
 * The derivation and its base58 text are both remembered (pda-cache.ts): the planner asks for
 * every waiting fill's two orders on each pass.
 */
export function orderStateAddress(message: Uint8Array, programId: PublicKey): string {
  // By message object too: a planning pass asks for the same fills' orders batch after batch.
  const known = addresses.get(message);
  if (known?.programId.equals(programId)) return known.address;
  const m = decodeOrderMessage(message);
  const address = addressOf(findOrderStatePda(new PublicKey(m.owner), m.nonce, programId)[0]);
  addresses.set(message, { programId, address });
  return address;
}

/** The fills (of these) that involve the order at `address`, as taker or maker. */
export function fillsOfOrderAccount(fills: readonly SettlementFill[], address: string, programId: PublicKey): string[] {
  return fills
    .filter(
      (f) =>
        orderStateAddress(f.takerOrder.message, programId) === address || orderStateAddress(f.makerOrder.message, programId) === address,
    )
    .map((f) => f.fillId);
}

/** The order accounts these fills' orders already have on chain, by address. */
export async function readOrderStates(
  ctx: Pick<FamilyCContext, 'chain' | 'programId'>,
  fills: readonly SettlementFill[],
): Promise<Map<string, OrderStateAccount>> {
  const addresses = [
    ...new Set(fills.flatMap((f) => [f.takerOrder, f.makerOrder]).map((o) => orderStateAddress(o.message, ctx.programId))),
  ];
  const states = new Map<string, OrderStateAccount>();
  for (let i = 0; i < addresses.length; i += 100) {
    const chunk = addresses.slice(i, i + 100);
    const accounts = await ctx.chain.getMultipleAccounts(chunk);
    accounts.forEach((a, k) => {
      if (a && a.owner === ctx.programId.toBase58()) states.set(chunk[k]!, decodeOrderState(a.data));
    });
  }
  return states;
}

/** The receipts of these fills that exist on chain, by fill id. */
export async function readReceipts(
  ctx: Pick<FamilyCContext, 'chain' | 'programId'>,
  fillIds: readonly string[],
): Promise<Map<string, FillReceiptAccount>> {
  const receipts = new Map<string, FillReceiptAccount>();
  for (let i = 0; i < fillIds.length; i += 100) {
    const chunk = fillIds.slice(i, i + 100);
    const accounts = await ctx.chain.getMultipleAccounts(chunk.map((id) => findFillReceiptPda(id, ctx.programId)[0].toBase58()));
    accounts.forEach((a, k) => {
      if (a && a.owner === ctx.programId.toBase58()) receipts.set(chunk[k]!, decodeFillReceipt(a.data));
    });
  }
  return receipts;
}

/**
 * The smart-wallet token accounts (USDC, YES, NO) of these owners as the chain holds them now,
 * each stamped with the slot it was read at (rows for the slot-guarded token-account index).
 * Accounts that do not exist are left out: a settled fill's accounts exist, and deleting rows is
 * the indexer's business.
 */
export async function readSmartWalletAccounts(
  ctx: Pick<FamilyCContext, 'chain' | 'programId' | 'usdcMint'>,
  mints: { yes: string; no: string },
  owners: readonly string[],
): Promise<TokenAccountRow[]> {
  const mintKeys = [ctx.usdcMint, new PublicKey(mints.yes), new PublicKey(mints.no)];
  const addresses = [...new Set(owners)].flatMap((owner) =>
    mintKeys.map((mint) => findEscrowTokenAddress(new PublicKey(owner), mint, ctx.programId).toBase58()),
  );
  const rows: TokenAccountRow[] = [];
  for (let i = 0; i < addresses.length; i += 100) {
    for (const snapshot of await ctx.chain.getMultipleAccounts(addresses.slice(i, i + 100))) {
      const row = snapshot ? decodeTokenAccountSnapshot(snapshot) : null;
      if (row) rows.push(row);
    }
  }
  return rows;
}
