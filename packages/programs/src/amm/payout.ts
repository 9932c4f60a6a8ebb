/**
 * Market life-cycle values: the opening state, resolution (and the AMM creator surplus), redemption
 * values, cancellation, fee claims. Payouts round down (what users receive); the last redeemer of a
 * pro-rata pot receives the remainder, so the vault is never short and never keeps dust forever.
 */
import { AmmError } from './errors.js';
import { assertU64, mulDivFloor } from './money.js';
import type { MarketMode, MarketState, OutcomeSide } from './types.js';

/** AMM seed minimum (1 USDC); a seed of 0 selects Pool mode. */
export const MIN_AMM_SEED = 1_000_000n;

/** The state written by create_market: AMM seeds `seed` complete sets into both reserves. */
export function openMarket(seed: bigint, tradeFeeBps: bigint): MarketState {
  assertU64(seed, 'seed');
  if (seed !== 0n && seed < MIN_AMM_SEED) throw new AmmError('InvalidArgument', `AMM seed below ${MIN_AMM_SEED}`);
  const mode: MarketMode = seed === 0n ? 'pool' : 'amm';
  return {
    mode,
    status: 'active',
    winningSide: null,
    tradeFeeBps,
    yesReserve: seed,
    noReserve: seed,
    yesSupply: 0n,
    noSupply: 0n,
    collateral: seed,
    creatorFeesAccrued: 0n,
    creatorFeesClaimed: 0n,
    protocolFeesAccrued: 0n,
    protocolFeesClaimed: 0n,
  };
}

/**
 * Resolution. Both sides need user holders (else NoOpposition). AMM: winners are owed exactly their
 * supply, so the creator takes collateral − winningSupply (= the winning reserve, the seed plus the
 * liquidity fees and the curve's gains). Pool: nothing leaves; the winners split the collateral.
 * Example: AMM collateral 110, YES supply 19, YES wins → surplus 91, collateral 19.
 */
export function resolveMarket(m: MarketState, winningSide: OutcomeSide): { creatorSurplus: bigint; next: MarketState } {
  if (m.status !== 'active') throw new AmmError('MarketNotActive', `market is ${m.status}`);
  if (m.yesSupply === 0n || m.noSupply === 0n) throw new AmmError('NoOpposition', 'one side has no holder');
  const winningSupply = winningSide === 'YES' ? m.yesSupply : m.noSupply;
  const creatorSurplus = m.mode === 'amm' ? m.collateral - winningSupply : 0n;
  if (creatorSurplus < 0n) throw new AmmError('MathOverflow', 'collateral below the winning supply');
  return {
    creatorSurplus,
    next: { ...m, status: 'resolved', winningSide, collateral: m.collateral - creatorSurplus },
  };
}

/**
 * What burning `tokens` of `side` pays. Resolved AMM: 1 raw USDC per winning raw token. Resolved
 * Pool: floor(collateral × tokens / winningSupply) of what remains. Cancelled: every token of
 * either side, floor(collateral × tokens / (yesSupply + noSupply)). Losing tokens: 0.
 * Example (Pool): pot 193 USDC, winning supply 300, redeem 100 → floor(193 × 100 / 300) = 64.33 → 64.
 */
export function redeemPayout(m: MarketState, side: OutcomeSide, tokens: bigint): { payout: bigint; next: MarketState } {
  if (m.status === 'active') throw new AmmError('MarketNotResolved');
  const supply = side === 'YES' ? m.yesSupply : m.noSupply;
  if (tokens <= 0n || tokens > supply) throw new AmmError('InvalidArgument', 'token amount out of range');
  let payout = 0n;
  if (m.status === 'cancelled') {
    payout = mulDivFloor(m.collateral, tokens, m.yesSupply + m.noSupply);
  } else if (side === m.winningSide) {
    payout = m.mode === 'amm' ? tokens : mulDivFloor(m.collateral, tokens, supply);
  }
  if (payout > m.collateral) throw new AmmError('MathOverflow', 'payout above the collateral');
  return {
    payout,
    next: {
      ...m,
      yesSupply: side === 'YES' ? m.yesSupply - tokens : m.yesSupply,
      noSupply: side === 'NO' ? m.noSupply - tokens : m.noSupply,
      collateral: m.collateral - payout,
    },
  };
}

export interface CancelContext {
  mintsInitialized: boolean;
  now: bigint;
  resolutionTime: bigint;
}

/**
 * A market may be cancelled by its creator while active when it can never be resolved: its mints
 * were never initialised (nobody could trade), or resolution time has passed and one side has no
 * holder (resolve would fail with NoOpposition forever).
 */
export function cancelAllowed(m: MarketState, c: CancelContext): boolean {
  if (m.status !== 'active') return false;
  if (!c.mintsInitialized) return true;
  return c.now >= c.resolutionTime && (m.yesSupply === 0n || m.noSupply === 0n);
}

/**
 * Cancellation. AMM: the creator's reserves count as tokens like the users' ones, so the creator
 * takes floor(collateral × (yesReserve + noReserve) / (all tokens)) now and every user token
 * later redeems pro rata of the rest (about 0.5 USDC each). Pool: the whole pot stays for users.
 * Example: AMM reserves 91/110, YES supply 19, collateral 110 → creator floor(110 × 201 / 220) =
 * 100, users share 10 (19 tokens → 10).
 */
export function cancelMarket(m: MarketState, c: CancelContext): { creatorRefund: bigint; next: MarketState } {
  if (m.status !== 'active') throw new AmmError('MarketNotActive', `market is ${m.status}`);
  if (!cancelAllowed(m, c)) throw new AmmError('CannotCancel', 'the market can still be resolved');
  const reserves = m.yesReserve + m.noReserve;
  const all = reserves + m.yesSupply + m.noSupply;
  const creatorRefund = all === 0n ? m.collateral : mulDivFloor(m.collateral, reserves, all);
  return {
    creatorRefund,
    next: { ...m, status: 'cancelled', yesReserve: 0n, noReserve: 0n, collateral: m.collateral - creatorRefund },
  };
}

export function claimCreatorFees(m: MarketState): { amount: bigint; next: MarketState } {
  const amount = m.creatorFeesAccrued - m.creatorFeesClaimed;
  return { amount, next: { ...m, creatorFeesClaimed: m.creatorFeesAccrued } };
}

export function claimProtocolFees(m: MarketState): { amount: bigint; next: MarketState } {
  const amount = m.protocolFeesAccrued - m.protocolFeesClaimed;
  return { amount, next: { ...m, protocolFeesClaimed: m.protocolFeesAccrued } };
}

/** What `tokens` of `side` would redeem for now: 0 while the market is active (positions view). */
export function redeemableValue(m: MarketState, side: OutcomeSide, tokens: bigint): bigint {
  const supply = side === 'YES' ? m.yesSupply : m.noSupply;
  if (m.status === 'active' || tokens <= 0n || tokens > supply) return 0n;
  return redeemPayout(m, side, tokens).payout;
}
