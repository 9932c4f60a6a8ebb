/**
 * API reads decode a market's index bytes once while they are unchanged (issue 15 item 3): the
 * same bytes give the same (frozen) decoded account, changed bytes a fresh decode, and an entry
 * is never served for another address or program.
 */
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { encodeMarketAccount, findMarketPda, MARKET_PROGRAM_ID, type MarketAccount } from '@pmx/programs';
import { decodeIndexedMarket } from '../../src/services/family-b/market-reader.js';

const creator = Keypair.generate().publicKey;
function account(id: bigint, yesReserve: bigint): MarketAccount {
  return {
    marketId: id,
    creator,
    vault: creator,
    resolutionTime: 2_000_000_000n,
    createdAt: 1_700_000_000n,
    resolvedAt: 0n,
    tradeFeeBps: 200,
    mode: 'amm',
    status: 'active',
    winningSide: null,
    mintsInitialized: true,
    bump: 255,
    seedAmount: 100_000_000n,
    yesReserve,
    noReserve: 100_000_000n,
    yesSupply: 1_000_000n,
    noSupply: 1_000_000n,
    collateral: 101_000_000n,
    creatorFeesAccrued: 0n,
    creatorFeesClaimed: 0n,
    protocolFeesAccrued: 0n,
    protocolFeesClaimed: 0n,
    totalVolume: 0n,
    title: `Market ${id}`,
    description: 'cache',
    yesTicker: 'YES',
    noTicker: 'NO',
  };
}

describe('decodeIndexedMarket', () => {
  const address = findMarketPda(7n)[0].toBase58();

  it('decodes unchanged bytes once, and changed bytes afresh', () => {
    const first = decodeIndexedMarket(MARKET_PROGRAM_ID, address, encodeMarketAccount(account(7n, 100_000_000n)));
    const again = decodeIndexedMarket(MARKET_PROGRAM_ID, address, encodeMarketAccount(account(7n, 100_000_000n)));
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const traded = decodeIndexedMarket(MARKET_PROGRAM_ID, address, encodeMarketAccount(account(7n, 90_000_000n)));
    expect(traded).not.toBe(first);
    expect(traded.yesReserve).toBe(90_000_000n);
  });

  it('never serves an entry for another address or another program', () => {
    const bytes = encodeMarketAccount(account(8n, 100_000_000n));
    const real = decodeIndexedMarket(MARKET_PROGRAM_ID, findMarketPda(8n)[0].toBase58(), bytes);
    const elsewhere = decodeIndexedMarket(MARKET_PROGRAM_ID, Keypair.generate().publicKey.toBase58(), bytes);
    expect(elsewhere).not.toBe(real);
    const otherProgram = decodeIndexedMarket(Keypair.generate().publicKey, findMarketPda(8n)[0].toBase58(), bytes);
    expect(otherProgram).not.toBe(real);
    expect(otherProgram.marketId).toBe(8n);
  });
});
