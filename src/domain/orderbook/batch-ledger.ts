/**
 * The matcher's view of owners' funds, resting counts and nonces within one batch. It starts from
 * what the database held when the batch began (balances from the token-account index, holds of
 * resting orders and unsettled fills, resting counts, used nonces — across every market and
 * matcher) and adds what each operation of the batch did, so later operations of the same batch
 * see earlier ones without a query per order. The rules are those of owner holds (holds.ts),
 * commitments (commitments.ts) and `orderNeed` (amounts.ts).
 * Example: 40 USDC free; a resting buy of 50 at 7000 is accepted (needs 35_087_502) and rests,
 * committing 35_000_000; a second one in the same batch sees 5_000_000 free and is refused.
 */
import { DomainError } from '../errors.js';
import { orderNeed, restingCommitment } from '@pmx/programs';
import { fillHolds } from './holds.js';
import { checkRestingLimits } from './order-rules.js';
import type { CancelledOrder, FeeConfig, Fill, Outcome, PlaceResult, Side } from './types.js';

export interface OwnerStart {
  usdcBalance: bigint;
  /** Keyed `${marketId}:${outcome}`. */
  tokenBalance: Map<string, bigint>;
  usdcHeld: bigint;
  tokensHeld: Map<string, bigint>;
  restingTotal: number;
  restingByMarket: Map<string, number>;
}

export interface PlaceCheck {
  owner: string;
  marketId: string;
  side: Side;
  outcome: Outcome;
  priceBps: number;
  quantity: bigint;
  nonce: string;
  /** GTC limit orders can rest, so they count against the resting limits. */
  canRest: boolean;
  /** A postOnly order never takes, so it needs only its maker commitment (no taker fee, `orderNeed`). */
  postOnly?: boolean;
}

interface Delta {
  usdc: bigint;
  tokens: Map<string, bigint>;
  restingTotal: number;
  restingByMarket: Map<string, number>;
}

const key = (marketId: string, outcome: Outcome) => `${marketId}:${outcome}`;
const bump = <K>(m: Map<K, bigint>, k: K, d: bigint) => m.set(k, (m.get(k) ?? 0n) + d);
const count = <K>(m: Map<K, number>, k: K, d: number) => m.set(k, (m.get(k) ?? 0) + d);

export function emptyStart(): OwnerStart {
  return { usdcBalance: 0n, tokenBalance: new Map(), usdcHeld: 0n, tokensHeld: new Map(), restingTotal: 0, restingByMarket: new Map() };
}

export class BatchLedger {
  private readonly deltas = new Map<string, Delta>();

  constructor(
    private readonly fees: FeeConfig,
    private readonly starts: ReadonlyMap<string, OwnerStart>,
    private readonly usedNonces: Set<string>,
  ) {}

  private delta(owner: string): Delta {
    let d = this.deltas.get(owner);
    if (!d) {
      d = { usdc: 0n, tokens: new Map(), restingTotal: 0, restingByMarket: new Map() };
      this.deltas.set(owner, d);
    }
    return d;
  }

  /** Refuses (DomainError, nothing changed) what the owner cannot place now. */
  check(o: PlaceCheck): void {
    if (this.usedNonces.has(`${o.owner}|${o.nonce}`)) {
      throw new DomainError(
        'invalid',
        'DUPLICATE_NONCE',
        `Nonce ${o.nonce} was already used by ${o.owner}; sign a new order with a fresh nonce`,
      );
    }
    const start = this.starts.get(o.owner) ?? emptyStart();
    const d = this.deltas.get(o.owner);
    if (o.canRest) {
      checkRestingLimits({
        total: start.restingTotal + (d?.restingTotal ?? 0),
        inMarket: (start.restingByMarket.get(o.marketId) ?? 0) + (d?.restingByMarket.get(o.marketId) ?? 0),
      });
    }
    const available = this.available(o.owner, o.marketId, o.side, o.outcome);
    const need = orderNeed(o.side, o.priceBps, o.quantity, this.fees, o.postOnly === true);
    const required = o.side === 'buy' ? need.usdc : need.tokens;
    if (required > available) {
      const buyWhat = o.postOnly
        ? 'USDC (the postOnly order at its limit price)'
        : 'USDC (the order at its limit price plus the taker fee it could pay)';
      const what = o.side === 'buy' ? buyWhat : `${o.outcome.toUpperCase()} tokens`;
      const free = available > 0n ? available : 0n;
      throw new DomainError(
        'invalid',
        'INSUFFICIENT_BALANCE',
        `The smart wallet's free balance of ${free} does not cover the ${required} raw ${what} this order needs`,
        {
          available: free.toString(),
          required: required.toString(),
        },
      );
    }
  }

  /** The owner's free balance for a buy (USDC) or a sell (that outcome's tokens): balance − every hold, as of this point of the batch. */
  private available(owner: string, marketId: string, side: Side, outcome: Outcome): bigint {
    const start = this.starts.get(owner) ?? emptyStart();
    const d = this.deltas.get(owner);
    const k = key(marketId, outcome);
    const held = side === 'buy' ? start.usdcHeld + (d?.usdc ?? 0n) : (start.tokensHeld.get(k) ?? 0n) + (d?.tokens.get(k) ?? 0n);
    const balance = side === 'buy' ? start.usdcBalance : (start.tokenBalance.get(k) ?? 0n);
    return balance - held;
  }

  /** Whether the owner's free balance covers `amount` more held (a failed fill's quantity given back to a resting order). */
  covers(owner: string, marketId: string, side: Side, outcome: Outcome, amount: bigint): boolean {
    return this.available(owner, marketId, side, outcome) >= amount;
  }

  /** A resting order's commitment changed by `amount` outside a placement (a give-back). */
  recommitted(owner: string, marketId: string, side: Side, outcome: Outcome, amount: bigint): void {
    this.commit(owner, marketId, side, outcome, amount, 0);
  }

  /** Records what an accepted placement changed: its nonce, the commitments of every order it touched, its fills' holds, resting counts. */
  placed(o: PlaceCheck, result: PlaceResult): void {
    this.usedNonces.add(`${o.owner}|${o.nonce}`);
    if (result.order.resting) this.commit(o.owner, o.marketId, o.side, o.outcome, result.order.committedAmount, 1);
    const filledByMaker = new Map<string, bigint>();
    for (const f of result.fills) bump(filledByMaker, f.makerOrderId, f.quantity);
    for (const m of result.makersChanged) {
      const before = m.remaining + (filledByMaker.get(m.id) ?? 0n);
      const change = restingCommitment(m.side, m.priceBps, m.remaining) - restingCommitment(m.side, m.priceBps, before);
      this.commit(m.owner, o.marketId, m.side, m.outcome, change, m.remaining === 0n ? -1 : 0);
    }
    this.cancelled(o.marketId, result.cancelled);
    for (const f of result.fills) this.hold(o.marketId, f);
  }

  /** Cancelled orders release their commitments and resting slots. */
  cancelled(marketId: string, cancelled: readonly CancelledOrder[]): void {
    for (const c of cancelled)
      this.commit(
        c.order.owner,
        marketId,
        c.order.side,
        c.order.outcome,
        -restingCommitment(c.order.side, c.order.priceBps, c.order.remaining),
        -1,
      );
  }

  /** The undo of `cancelled`: the orders rest again (a replace whose new order was refused). */
  uncancelled(marketId: string, cancelled: readonly CancelledOrder[]): void {
    for (const c of cancelled)
      this.commit(
        c.order.owner,
        marketId,
        c.order.side,
        c.order.outcome,
        restingCommitment(c.order.side, c.order.priceBps, c.order.remaining),
        1,
      );
  }

  private commit(owner: string, marketId: string, side: Side, outcome: Outcome, amount: bigint, resting: number): void {
    const d = this.delta(owner);
    if (side === 'buy') d.usdc += amount;
    else bump(d.tokens, key(marketId, outcome), amount);
    if (resting !== 0) {
      d.restingTotal += resting;
      count(d.restingByMarket, marketId, resting);
    }
  }

  private hold(marketId: string, f: Fill): void {
    const holds = fillHolds({
      market_id: marketId,
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
    });
    for (const h of holds) {
      const d = this.delta(h.owner);
      d.usdc += h.usdc;
      bump(d.tokens, key(marketId, 'yes'), h.yes);
      bump(d.tokens, key(marketId, 'no'), h.no);
    }
  }
}
