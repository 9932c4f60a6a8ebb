/** Account and instruction codecs: fixed offsets, round trips, Anchor discriminators, PDAs. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  BUY_DATA,
  BUY_DISCRIMINATOR,
  CREATE_MARKET_DATA,
  MARKET_ACCOUNT_OFFSETS,
  MARKET_ACCOUNT_SIZE,
  MARKET_PROGRAM_ID,
  decodeMarketAccount,
  encodeMarketAccount,
  findMarketPda,
  marketErrorByCode,
  marketErrorFromTransactionError,
  type MarketAccount,
} from '../../src/market/index.js';

const sample: MarketAccount = {
  marketId: 42n,
  creator: Keypair.generate().publicKey,
  vault: Keypair.generate().publicKey,
  resolutionTime: 1_900_000_000n,
  createdAt: 1_800_000_000n,
  resolvedAt: 0n,
  tradeFeeBps: 200,
  mode: 'amm',
  status: 'resolved',
  winningSide: 'NO',
  mintsInitialized: true,
  bump: 254,
  seedAmount: 1n,
  yesReserve: 2n,
  noReserve: 3n,
  yesSupply: 4n,
  noSupply: 5n,
  collateral: 6n,
  creatorFeesAccrued: 7n,
  creatorFeesClaimed: 8n,
  protocolFeesAccrued: 9n,
  protocolFeesClaimed: 10n,
  totalVolume: (1n << 64n) - 1n,
  title: 'Ünïcödé title 🚀',
  description: 'd',
  yesTicker: 'UP',
  noTicker: 'DOWN',
};

describe('codecs', () => {
  it('round-trips a market account at a fixed size with documented offsets', () => {
    const data = encodeMarketAccount(sample);
    expect(data.length).toBe(MARKET_ACCOUNT_SIZE);
    expect(decodeMarketAccount(data)).toEqual(sample);
    expect(new PublicKey(data.subarray(MARKET_ACCOUNT_OFFSETS.creator, MARKET_ACCOUNT_OFFSETS.creator + 32)).equals(sample.creator)).toBe(
      true,
    );
    expect(data.readBigUInt64LE(MARKET_ACCOUNT_OFFSETS.marketId)).toBe(42n);
    expect(data[MARKET_ACCOUNT_OFFSETS.status]).toBe(1);
    expect(() => decodeMarketAccount(data.subarray(0, 100))).toThrow(/not a Market/);
  });

  it('uses Anchor discriminators and round-trips instruction data', () => {
    expect(BUY_DISCRIMINATOR.equals(createHash('sha256').update('global:buy').digest().subarray(0, 8))).toBe(true);
    const args = {
      marketId: 7n,
      title: 't',
      description: 'd',
      yesTicker: 'Y',
      noTicker: 'N',
      resolutionTime: 2_000_000_000n,
      seedAmount: 0n,
      tradeFeeBps: 100,
    };
    expect(CREATE_MARKET_DATA.decode(CREATE_MARKET_DATA.encode(args))).toEqual(args);
    expect(BUY_DATA.decode(BUY_DATA.encode({ side: 'NO', amount: 5n, minOut: 4n }))).toEqual({ side: 'NO', amount: 5n, minOut: 4n });
  });

  it('derives the market PDA from the u64 little-endian id', () => {
    const seed = Buffer.alloc(8);
    seed.writeBigUInt64LE(258n);
    const [expected] = PublicKey.findProgramAddressSync([Buffer.from('market'), seed], MARKET_PROGRAM_ID);
    expect(findMarketPda(258n)[0].equals(expected)).toBe(true);
  });

  it('maps custom codes back to names', () => {
    expect(marketErrorByCode(6000)?.name).toBe('ResolutionTooEarly');
    expect(marketErrorFromTransactionError({ InstructionError: [1, { Custom: 6001 }] })?.name).toBe('NoOpposition');
    expect(marketErrorFromTransactionError('BlockhashNotFound')).toBeUndefined();
  });
});
