/**
 * A settlement batch's plan: the fills in match order, each with the slots of its two orders
 * (one slot per OrderState address, in first-use order), checked on the way (the orders' market,
 * the fill type they make, a nonce that names one order only). A bad fill ends the plan; the
 * caller reports it when it is the first. No transaction is built here (batch-compile.ts).
 */
import type { PublicKey } from '@solana/web3.js';
import { decodeOrderMessage, type OrderMessage } from '../../orderbook/order-message.js';
import { findClobMarketPda } from '../pda.js';
import { addressOf, publicKeyOfBytes } from '../../solana/pda-cache.js';
import { fillTypeOf } from './fill-amounts.js';
import type { SettleFillInput } from './settle-instruction.js';
import { findOrderStatePda } from './settle-pda.js';
import { SettlementAssemblyError, type SettlementContext, type SettlementFill, type SignedOrder } from './settlement-types.js';

export interface OrderSlot {
  address: string;
  owner: PublicKey;
  nonce: bigint;
  outcome: 'yes' | 'no';
  message: Uint8Array;
  signature: Uint8Array;
  /** Not on chain yet: its signature travels in the Ed25519 instruction. */
  needsProof: boolean;
}

/** An order message decoded, with its owner's key and its OrderState address (for `programId`). */
interface DecodedOrder {
  /** The bytes decoded (a copy): an entry serves only a message that still holds them. */
  bytes: Uint8Array;
  m: OrderMessage;
  owner: PublicKey;
  address: string;
  programId: PublicKey;
}

/**
 * By message object: the planner plans batch after batch from the same fills (settle-choice.ts),
 * and each plan decoded both orders and looked their addresses up again (~8 % of an assembly).
 * Only messages that decoded are kept, with a copy of their bytes compared on each use (92 bytes).
 */
const decoded = new WeakMap<Uint8Array, DecodedOrder>();

function decodeSigned(fill: SettlementFill, o: SignedOrder, programId: PublicKey): DecodedOrder {
  if (o.signature.length !== 64)
    throw new SettlementAssemblyError('INVALID_FILL', fill.fillId, `fill ${fill.fillId}: signature must be 64 bytes`);
  const known = decoded.get(o.message);
  if (known?.programId.equals(programId) && Buffer.compare(known.bytes, o.message) === 0) return known;
  let m: OrderMessage;
  try {
    m = decodeOrderMessage(o.message);
  } catch (e) {
    throw new SettlementAssemblyError('INVALID_FILL', fill.fillId, `fill ${fill.fillId}: ${(e as Error).message}`);
  }
  const owner = publicKeyOfBytes(m.owner);
  const entry = {
    bytes: Uint8Array.from(o.message),
    m,
    owner,
    address: addressOf(findOrderStatePda(owner, m.nonce, programId)[0]),
    programId,
  };
  decoded.set(o.message, entry);
  return entry;
}

export class BatchPlan {
  readonly orders: OrderSlot[] = [];
  readonly fills: SettleFillInput[] = [];
  private readonly index = new Map<string, number>();
  /** After each fill, how many orders the fills so far use (first-use order: a running maximum). */
  private readonly used: number[] = [0];
  /** The accounts the orders lock (batch-bounds.ts `lockedAccounts`), and their count after each order. */
  private readonly locks = new Set<string>();
  private readonly distinctLocks: number[] = [0];

  constructor(
    private readonly ctx: SettlementContext,
    private readonly programId: PublicKey,
    private readonly market: PublicKey,
  ) {}

  private slot(fill: SettlementFill, o: SignedOrder, { m, owner, address }: DecodedOrder): number {
    const known = this.index.get(address);
    if (known !== undefined) {
      if (!Buffer.from(this.orders[known]!.message).equals(o.message))
        throw new SettlementAssemblyError('ORDER_NONCE_REUSED', fill.fillId, `two orders of ${owner.toBase58()} share nonce ${m.nonce}`);
      return known;
    }
    const stored = this.ctx.orderStates.get(address);
    if (stored && !Buffer.from(stored.message).equals(o.message)) {
      throw new SettlementAssemblyError(
        'ORDER_NONCE_REUSED',
        fill.fillId,
        `order account ${address} holds another order of ${owner.toBase58()} with nonce ${m.nonce}`,
      );
    }
    this.orders.push({
      address,
      owner,
      nonce: m.nonce,
      outcome: m.outcome,
      message: o.message,
      signature: o.signature,
      needsProof: !stored,
    });
    this.index.set(address, this.orders.length - 1);
    const ownerText = addressOf(owner);
    this.locks.add(address).add(ownerText).add(`${ownerText}:usdc`).add(`${ownerText}:${m.outcome}`);
    this.distinctLocks.push(this.locks.size);
    return this.orders.length - 1;
  }

  /** How many of `orders` (in first-use order) the first `n` fills use. */
  ordersUsedBy(n: number): number {
    return this.used[Math.max(0, Math.min(n, this.fills.length))]!;
  }

  /**
   * Distinct accounts the first `k` orders lock: per order its state account, per owner the smart
   * wallet and its USDC account, per owner and outcome its token account (kept as orders come,
   * where batch-bounds.ts counted them again for every candidate length).
   */
  orderLocks(k: number): number {
    return this.distinctLocks[k]!;
  }

  add(fill: SettlementFill): void {
    const takerOrder = decodeSigned(fill, fill.takerOrder, this.programId);
    const makerOrder = decodeSigned(fill, fill.makerOrder, this.programId);
    const [taker, maker] = [takerOrder.m, makerOrder.m];
    const invalid = (why: string) => new SettlementAssemblyError('INVALID_FILL', fill.fillId, `fill ${fill.fillId}: ${why}`);
    if (!Buffer.from(taker.market).equals(this.market.toBuffer()) || !Buffer.from(maker.market).equals(this.market.toBuffer()))
      throw invalid('an order is for another market');
    if (fillTypeOf(taker, maker) !== fill.fillType)
      throw invalid(`the orders make a ${fillTypeOf(taker, maker) ?? 'no'} fill, not ${fill.fillType}`);
    if (fill.quantity <= 0n) throw invalid('quantity must be positive');
    this.fills.push({
      fillId: fill.fillId,
      taker: this.slot(fill, fill.takerOrder, takerOrder),
      maker: this.slot(fill, fill.makerOrder, makerOrder),
      quantity: fill.quantity,
    });
    const last = this.fills.at(-1)!;
    this.used.push(Math.max(this.used.at(-1)!, last.taker + 1, last.maker + 1));
  }
}

/** The fills in order until `full(plan)`; a bad fill ends them (thrown when it is the first: the caller reports it). */
export function planOf(
  fills: readonly SettlementFill[],
  ctx: SettlementContext,
  programId: PublicKey,
  full: (plan: BatchPlan) => boolean,
): BatchPlan {
  const plan = new BatchPlan(ctx, programId, findClobMarketPda(ctx.marketUuid, programId)[0]);
  for (const fill of fills.slice(0, 255)) {
    try {
      plan.add(fill);
    } catch (e) {
      // Settle what precedes a bad fill; the next batch starts with it and reports it.
      if (plan.fills.length > 0 && e instanceof SettlementAssemblyError) break;
      throw e;
    }
    if (full(plan)) break;
  }
  return plan;
}
