/** Bridges the on-chain market account and the pure domain state the math works on. */
import type { MarketState } from '../amm/index.js';
import type { MarketAccount } from './accounts.js';

export function toMarketState(a: MarketAccount): MarketState {
  return {
    mode: a.mode,
    status: a.status,
    winningSide: a.winningSide,
    tradeFeeBps: BigInt(a.tradeFeeBps),
    yesReserve: a.yesReserve,
    noReserve: a.noReserve,
    yesSupply: a.yesSupply,
    noSupply: a.noSupply,
    collateral: a.collateral,
    creatorFeesAccrued: a.creatorFeesAccrued,
    creatorFeesClaimed: a.creatorFeesClaimed,
    protocolFeesAccrued: a.protocolFeesAccrued,
    protocolFeesClaimed: a.protocolFeesClaimed,
  };
}

/** The account with the numeric state replaced (identity fields are untouched). */
export function withMarketState(a: MarketAccount, s: MarketState): MarketAccount {
  return {
    ...a,
    mode: s.mode,
    status: s.status,
    winningSide: s.winningSide,
    yesReserve: s.yesReserve,
    noReserve: s.noReserve,
    yesSupply: s.yesSupply,
    noSupply: s.noSupply,
    collateral: s.collateral,
    creatorFeesAccrued: s.creatorFeesAccrued,
    creatorFeesClaimed: s.creatorFeesClaimed,
    protocolFeesAccrued: s.protocolFeesAccrued,
    protocolFeesClaimed: s.protocolFeesClaimed,
  };
}
