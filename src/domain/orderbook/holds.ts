/**
 * What an owner's money is held for, per market: resting orders' commitments plus what unsettled
 * fills will take at settlement. For a fill the owner is part of:
 * - a buying taker pays `usdcAmount + takerFee`; a buying maker pays `makerUsdc`
 *   (the taker's fee is charged on its own leg; the maker pays none);
 * - a seller (maker or taker) delivers `quantity` tokens of its outcome; its USDC proceeds are
 *   not available until the fill settles, so they count for nothing here.
 * Example: a taker bought 40 YES at 6000 from a maker: taker holds 24_000_000 + 60_000 USDC,
 * the maker holds 40_000_000 YES tokens, until settled.
 */
import type { Outcome, Side } from './types.js';

export interface MarketHold {
  usdc: bigint;
  yes: bigint;
  no: bigint;
}

export interface OwnerHolds {
  usdc: bigint;
  markets: Map<string, MarketHold>;
}

export interface RestingHold {
  marketId: string;
  side: Side;
  outcome: Outcome;
  committed: bigint;
}

export interface FillHoldInput {
  market_id: string;
  maker_owner: string;
  taker_owner: string;
  taker_side: Side;
  outcome: Outcome;
  maker_side: Side;
  maker_outcome: Outcome;
  quantity: bigint;
  usdc_amount: bigint;
  maker_usdc: bigint;
  taker_fee: bigint;
}

function add(holds: OwnerHolds, marketId: string, usdc: bigint, outcome: Outcome | null, tokens: bigint): void {
  let m = holds.markets.get(marketId);
  if (!m) {
    m = { usdc: 0n, yes: 0n, no: 0n };
    holds.markets.set(marketId, m);
  }
  m.usdc += usdc;
  holds.usdc += usdc;
  if (outcome) m[outcome] += tokens;
}

/** One owner's hold from one fill, per market (the ledger the matcher adds to and the keeper subtracts from). */
export interface HoldDelta {
  owner: string;
  marketId: string;
  usdc: bigint;
  yes: bigint;
  no: bigint;
}

/** What an unsettled fill holds of each of its owners (the rule above, stated once). */
export function fillHolds(f: FillHoldInput): HoldDelta[] {
  const out: HoldDelta[] = [];
  const leg = (owner: string, side: Side, outcome: Outcome, usdc: bigint) => {
    if (side === 'buy') out.push({ owner, marketId: f.market_id, usdc, yes: 0n, no: 0n });
    else
      out.push({
        owner,
        marketId: f.market_id,
        usdc: 0n,
        yes: outcome === 'yes' ? f.quantity : 0n,
        no: outcome === 'no' ? f.quantity : 0n,
      });
  };
  leg(f.taker_owner, f.taker_side, f.outcome, f.usdc_amount + f.taker_fee);
  leg(f.maker_owner, f.maker_side, f.maker_outcome, f.maker_usdc);
  return out;
}

export function ownerHolds(owner: string, resting: readonly RestingHold[], fills: readonly FillHoldInput[]): OwnerHolds {
  const holds: OwnerHolds = { usdc: 0n, markets: new Map() };
  for (const r of resting) {
    if (r.side === 'buy') add(holds, r.marketId, r.committed, null, 0n);
    else add(holds, r.marketId, 0n, r.outcome, r.committed);
  }
  for (const f of fills) {
    for (const d of fillHolds(f)) {
      if (d.owner !== owner) continue;
      add(holds, d.marketId, d.usdc, 'yes', d.yes);
      add(holds, d.marketId, 0n, 'no', d.no);
    }
  }
  return holds;
}
