/**
 * The order vocabulary the exchange program and the daemon's matching engine share: a signed
 * order's side and outcome, a fill's type (which settlement transfers it makes) and the fee
 * schedule in basis points. The daemon's `src/domain/orderbook/types.ts` re-exports these.
 */
export type Side = 'buy' | 'sell';
export type Outcome = 'yes' | 'no';
export type FillType = 'direct' | 'complementary' | 'sell_complementary';

/** Basis points in one whole (prices and fees are integer bps). */
export const BPS = 10_000n;

export interface FeeConfig {
  takerFeeBps: bigint;
  makerRebateBps: bigint;
}
