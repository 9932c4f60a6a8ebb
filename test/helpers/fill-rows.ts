/** A `clob_fills` row for repository tests: a matched 1-unit direct fill at 5000 bps in market m1, numbered `seq`. */
export const FILL_ROW_TIME = '2026-11-26T00:00:00.000Z';

export function fillRow(id: string, seq: number) {
  return {
    give_back: null,
    give_back_order_id: null,
    id,
    market_id: 'm1',
    seq: BigInt(seq),
    maker_order_id: `maker-${seq}`,
    taker_order_id: `taker-${seq}`,
    maker_owner: 'a',
    taker_owner: 'b',
    taker_side: 'buy' as const,
    outcome: 'yes' as const,
    price_bps: 5000,
    maker_side: 'sell' as const,
    maker_outcome: 'yes' as const,
    maker_price_bps: 5000,
    fill_type: 'direct' as const,
    quantity: 1n,
    usdc_amount: 1n,
    maker_usdc: 1n,
    taker_fee: 0n,
    maker_rebate: 0n,
    protocol_fee: 0n,
    rounding_dust: 0n,
    status: 'matched' as const,
    retry_count: 0,
    failure_reason: null,
    batch_id: null,
    settle_tx: null,
    positions_applied: 0,
    matched_at: FILL_ROW_TIME,
    settled_at: null,
    updated_at: FILL_ROW_TIME,
  };
}
