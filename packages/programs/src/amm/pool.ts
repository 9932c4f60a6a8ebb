/**
 * Pool mode (seed 0): parimutuel. The price is fixed at 0.5 USDC per token on both sides (odds
 * 50/50), so a buy mints two tokens per net USDC; there is no selling; after resolution the winners
 * split the whole pool pro rata (payout.ts).
 * Example: 100 USDC at 2 % → net 96.5 USDC → 193 tokens (193_000_000 raw).
 */
import { AmmError } from './errors.js';

/** Raw tokens minted per raw USDC of net stake (price 0.5). */
export const POOL_TOKENS_PER_USDC = 2n;

export function poolBuy(netIn: bigint): bigint {
  if (netIn <= 0n) throw new AmmError('AmountTooSmall', 'nothing to buy with');
  return netIn * POOL_TOKENS_PER_USDC;
}
