/** A chain market row for repository tests: its mints and bytes derived from the id, so rows of different ids never collide. */
export const chainMarketRow = (marketId: bigint, slot: bigint, status = 'active') => ({
  marketId,
  address: `market-${marketId}`,
  creator: 'creator',
  status,
  mode: 'standard',
  yesMint: `yes-${marketId}`,
  noMint: `no-${marketId}`,
  data: Buffer.from([Number(marketId), Number(slot)]),
  slot,
});
