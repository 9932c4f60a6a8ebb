/**
 * Mid and spread of a book's top, per outcome, from that outcome's own ladders (the `bestBid` /
 * `bestAsk` the orderbook and market responses show). Both need both sides: with one side empty
 * there is no mid to speak of (unlike a position's valuation, positions.ts `currentPrice`, which
 * falls back to the one side). The mid is exact: (bid + ask) / 2 can end in .5 bps, the one price
 * of the API that is not an integer; rounding it would move it toward one side.
 */
import type { Outcome } from './types.js';

type PerOutcome = Record<Outcome, number | null>;

export interface TopPrices {
  bestBid: PerOutcome;
  bestAsk: PerOutcome;
  lastPrice: PerOutcome;
}

export function quoteOf(top: TopPrices): TopPrices & { mid: PerOutcome; spread: PerOutcome } {
  const both = (o: Outcome, f: (bid: number, ask: number) => number) => {
    const bid = top.bestBid[o];
    const ask = top.bestAsk[o];
    return bid === null || ask === null ? null : f(bid, ask);
  };
  const per = (f: (bid: number, ask: number) => number): PerOutcome => ({ yes: both('yes', f), no: both('no', f) });
  return {
    bestBid: { ...top.bestBid },
    bestAsk: { ...top.bestAsk },
    mid: per((bid, ask) => (bid + ask) / 2),
    spread: per((bid, ask) => ask - bid),
    lastPrice: { ...top.lastPrice },
  };
}
