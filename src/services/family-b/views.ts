/**
 * Family B JSON views: raw units as JSON numbers with `*Human` mirrors (USDC, 6 decimals),
 * sides always canonical YES/NO. Raw amounts stay below 2^53 for any real market (9·10^9 USDC).
 */
import { oddsOf, toMarketState, type TradeQuote } from '@pmx/programs';
import type { LoadedMarket } from './market-reader.js';

export const human = (raw: bigint): number => Number(raw) / 1_000_000;

function marketFields(m: LoadedMarket) {
  const a = m.account;
  const state = toMarketState(a);
  const claimable = a.creatorFeesAccrued - a.creatorFeesClaimed;
  return {
    id: Number(a.marketId),
    address: m.address.toBase58(),
    title: a.title,
    description: a.description,
    status: a.status,
    marketType: a.mode,
    winningOutcome: a.winningSide ? (a.winningSide.toLowerCase() as 'yes' | 'no') : null,
    winningSide: a.winningSide,
    yesTicker: a.yesTicker,
    noTicker: a.noTicker,
    yesMint: m.yesMint.toBase58(),
    noMint: m.noMint.toBase58(),
    vault: a.vault.toBase58(),
    yesReserve: Number(a.yesReserve),
    noReserve: Number(a.noReserve),
    yesSupply: Number(a.yesSupply),
    noSupply: Number(a.noSupply),
    collateral: Number(a.collateral),
    collateralHuman: human(a.collateral),
    odds: oddsOf(state),
    tradeFeeBps: a.tradeFeeBps,
    seedAmount: Number(a.seedAmount),
    creator: a.creator.toBase58(),
    createdAt: Number(a.createdAt),
    resolutionTime: Number(a.resolutionTime),
    resolvedAt: a.resolvedAt > 0n ? Number(a.resolvedAt) : null,
    mintsInitialized: a.mintsInitialized,
    isBroken: !a.mintsInitialized,
    creatorFeesAccrued: Number(a.creatorFeesAccrued),
    creatorFeesAccruedHuman: human(a.creatorFeesAccrued),
    creatorFeesClaimed: Number(a.creatorFeesClaimed),
    creatorFeesClaimedHuman: human(a.creatorFeesClaimed),
    creatorFeesClaimable: Number(claimable),
    creatorFeesClaimableHuman: human(claimable),
    totalVolume: Number(a.totalVolume),
    totalVolumeHuman: human(a.totalVolume),
  };
}

/**
 * A market's view depends only on its decoded account (and the addresses derived from it), which
 * reads share while the market's bytes are unchanged (market-reader.ts): build it once per
 * decoded account rather than base58-encoding five keys and computing the odds on every read.
 */
const views = new WeakMap<LoadedMarket['account'], ReturnType<typeof marketFields>>();

export function marketView(m: LoadedMarket) {
  let fields = views.get(m.account);
  if (!fields) views.set(m.account, (fields = marketFields(m)));
  return { ...fields, slot: m.slot };
}

export type MarketView = ReturnType<typeof marketView>;

export function quoteView(q: TradeQuote) {
  return {
    side: q.side,
    action: q.action,
    inputAmount: Number(q.inputAmount),
    outputAmount: Number(q.outputAmount),
    effectivePrice: q.effectivePrice,
    priceImpactBps: q.priceImpactBps,
    tradeFee: Number(q.tradeFee),
    liquidityFee: Number(q.liquidityFee),
    preOdds: q.preOdds,
    postOdds: q.postOdds,
  };
}

export function fullQuoteView(q: TradeQuote, marketId: bigint) {
  return { ...quoteView(q), effectiveAmount: Number(q.effectiveAmount), marketId: Number(marketId) };
}
