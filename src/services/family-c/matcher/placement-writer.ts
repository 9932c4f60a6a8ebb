/**
 * What one matcher batch writes, gathered in memory while its operations run and written at the
 * end in a few statements: the new orders (every accepted order is stored, resting or not: its
 * nonce is then used), the final state of every resting order it filled or cancelled (with the
 * cumulative rounding state, so a rebuilt book rounds the same), its fills (`matched`, for the
 * settlement keeper) and what they hold until settled. An order placed and then filled within the
 * same batch is inserted once, in its final state.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { addOwnerHolds, mergedHoldRows } from '../../../../db/repositories/clob-commitments.repository.js';
import { fitsOneStatement, writeBatchRows } from '../../../../db/repositories/clob-batch-writes.js';
import { isPostgresDb } from '../../../../db/row-locks.js';
import { endGiveBack } from '../../../../db/repositories/clob-fills.repository.js';
import { insertMatchedFills } from '../../../../db/repositories/clob-fill-inserts.js';
import type { FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { insertOrders, updateOrderStates } from '../../../../db/repositories/clob-orders.repository.js';
import type { ClobGiveBack, ClobOrdersTable, Database } from '../../../../db/schema.js';
import {
  fillHolds,
  restingCommitment,
  type CancelledOrder,
  type Fill,
  type HoldDelta,
  type PlaceResult,
  type RestingOrder,
} from '../../../domain/orderbook/index.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { BatchWritten } from '../orders/batch-views.js';
import type { OrderRow } from '../../../../db/repositories/clob-orders.repository.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredFill extends Fill {
  id: string;
  marketId: string;
  matchedAt: string;
}

interface OrderState {
  remaining: bigint;
  notional: bigint;
  usdc: bigint;
  committed: bigint;
  status: 'open' | 'partially_filled' | 'filled' | 'cancelled';
  cancelReason?: string;
}

function committed(o: RestingOrder): bigint {
  return restingCommitment(o.side, o.priceBps, o.remaining);
}

export class BatchWrites {
  private readonly inserted = new Map<string, Insertable<ClobOrdersTable>>();
  private readonly updated = new Map<string, OrderState>();
  /** As stored: the inserts write every column but the defaulted ones, which hold their defaults here. */
  private readonly fills: FillRow[] = [];
  private readonly holds: HoldDelta[] = [];
  private readonly giveBacks: Array<[string, Exclude<ClobGiveBack, 'pending'>]> = [];

  constructor(private readonly now: string) {}

  private change(id: string, s: OrderState): void {
    const row = this.inserted.get(id);
    if (row) {
      Object.assign(row, {
        remaining: s.remaining,
        notional: s.notional,
        usdc: s.usdc,
        committed: s.committed,
        status: s.status,
        updated_at: this.now,
      });
      if (s.cancelReason !== undefined) row.cancel_reason = s.cancelReason;
    } else this.updated.set(id, s);
  }

  makers(makers: readonly RestingOrder[]): void {
    for (const m of makers) {
      this.change(m.id, {
        remaining: m.remaining,
        notional: m.notional,
        usdc: m.usdc,
        committed: m.remaining > 0n ? committed(m) : 0n,
        status: m.remaining === 0n ? 'filled' : 'partially_filled',
      });
    }
  }

  cancels(cancelled: readonly CancelledOrder[], reason?: string): void {
    for (const c of cancelled) {
      this.change(c.order.id, {
        remaining: c.order.remaining,
        notional: c.order.notional,
        usdc: c.order.usdc,
        committed: 0n,
        status: 'cancelled',
        cancelReason: reason ?? c.reason,
      });
    }
  }

  /** A resting order that got a failed fill's quantity back. */
  restored(o: RestingOrder): void {
    this.change(o.id, {
      remaining: o.remaining,
      notional: o.notional,
      usdc: o.usdc,
      committed: committed(o),
      status: o.remaining === o.quantity ? 'open' : 'partially_filled',
    });
  }

  giveBackEnded(fillId: string, result: Exclude<ClobGiveBack, 'pending'>): void {
    this.giveBacks.push([fillId, result]);
  }

  placement(order: AcceptedOrder, result: PlaceResult, resting: RestingOrder | undefined): StoredFill[] {
    const notional = result.fills.reduce((sum, f) => sum + f.quantity * BigInt(f.priceBps), 0n);
    this.inserted.set(order.id, {
      id: order.id,
      market_id: order.marketId,
      owner: order.owner,
      side: order.side,
      outcome: order.outcome,
      price_bps: order.priceBps,
      quantity: BigInt(order.quantity),
      remaining: result.order.remaining,
      status: result.order.status,
      order_type: order.orderType,
      time_in_force: order.timeInForce,
      post_only: order.postOnly ? 1 : 0,
      nonce: order.nonce,
      expiry: BigInt(order.expiry),
      message: order.message,
      signature: order.signature,
      seq: BigInt(resting?.seq ?? 0),
      notional: resting?.notional ?? notional,
      usdc: resting?.usdc ?? result.order.usdc,
      committed: result.order.committedAmount,
      cancel_reason: result.order.status === 'cancelled' ? `${order.timeInForce}_remainder` : null,
      created_at: this.now,
      updated_at: this.now,
    });
    this.makers(result.makersChanged);
    this.cancels(result.cancelled);
    const fills = result.fills.map((f) => ({ ...f, id: randomUUID(), marketId: order.marketId, matchedAt: this.now }));
    for (const f of fills) {
      this.fills.push(fillRow(f, this.now));
      // What the fill holds until it settles (the keeper takes it back when the fill ends).
      this.holds.push(
        ...fillHolds({
          market_id: f.marketId,
          maker_owner: f.makerOwner,
          taker_owner: f.takerOwner,
          taker_side: f.takerSide,
          outcome: f.outcome,
          maker_side: f.makerSide,
          maker_outcome: f.makerOutcome,
          quantity: f.quantity,
          usdc_amount: f.usdcAmount,
          maker_usdc: f.makerUsdc,
          taker_fee: f.takerFee,
        }),
      );
    }
    return fills;
  }

  /**
   * Every order and fill this batch wrote (the events of the batch present them: orders/batch-views.ts):
   * the inserted rows as the database stores them (every column is set here; the fills' columns
   * with defaults hold their defaults), the changed orders by id.
   */
  written(): BatchWritten {
    return {
      // Insertable's money columns also take numbers; every value written here is a bigint.
      inserted: [...this.inserted.values()] as OrderRow[],
      updatedIds: [...this.updated.keys()],
      fills: this.fills,
    };
  }

  async flush(db: Db): Promise<void> {
    const orders = [...this.inserted.values()];
    const states = [...this.updated].map(([id, s]) => ({ id, ...s }));
    const rows = { orders, states, fills: this.fills, holds: mergedHoldRows(this.holds, 1n) };
    // PostgreSQL: one round trip for what took up to four (clob-batch-writes.ts); a lone insert
    // keeps its own statement, which is the same thing.
    const parts = [orders, states, this.fills, rows.holds].filter((x) => x.length > 0).length;
    if (parts > 1 && isPostgresDb(db) && fitsOneStatement(rows)) await writeBatchRows(db, this.now, rows);
    else {
      await insertOrders(db, orders);
      await updateOrderStates(db, states, this.now);
      await insertMatchedFills(db, this.fills);
      await addOwnerHolds(db, this.holds, 1n);
    }
    for (const [fillId, result] of this.giveBacks) {
      // Read as pending in this batch's transaction: anything else means another writer, and the
      // book change must not be kept without its record (the batch rolls back, the book is rebuilt).
      if (!(await endGiveBack(db, fillId, result))) throw new Error(`give-back of fill ${fillId} was no longer pending`);
    }
  }
}

function fillRow(f: StoredFill, now: string): FillRow {
  return {
    id: f.id,
    market_id: f.marketId,
    seq: BigInt(f.seq),
    maker_order_id: f.makerOrderId,
    taker_order_id: f.takerOrderId,
    maker_owner: f.makerOwner,
    taker_owner: f.takerOwner,
    taker_side: f.takerSide,
    outcome: f.outcome,
    price_bps: f.priceBps,
    maker_side: f.makerSide,
    maker_outcome: f.makerOutcome,
    maker_price_bps: f.makerPriceBps,
    fill_type: f.fillType,
    quantity: f.quantity,
    usdc_amount: f.usdcAmount,
    maker_usdc: f.makerUsdc,
    taker_fee: f.takerFee,
    maker_rebate: f.makerRebate,
    protocol_fee: f.protocolFee,
    rounding_dust: f.roundingDust,
    status: 'matched',
    retry_count: 0,
    failure_reason: null,
    batch_id: null,
    settle_tx: null,
    positions_applied: 0,
    matched_at: now,
    settled_at: null,
    updated_at: now,
    give_back: null,
    give_back_order_id: null,
    candle_state: 0,
  };
}
