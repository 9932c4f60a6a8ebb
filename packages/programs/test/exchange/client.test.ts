import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  CLOB_MARKET_SIZE,
  decodeClobMarket,
  decodeExchangeConfig,
  decodeUserEscrow,
  encodeClobMarket,
  encodeExchangeConfig,
  encodeUserEscrow,
  EXCHANGE_ACCOUNT,
  EXCHANGE_ERRORS,
  EXCHANGE_IX,
  EXCHANGE_PROGRAM_ID,
  exchangeErrorFromTransactionError,
  findClobMarketPda,
  findClobOutcomeMintPda,
  findClobVaultAddress,
  findEscrowTokenAddress,
  findUserEscrowPda,
  marketUuidSeed,
  uuidFromSeed,
} from '../../src/exchange/index.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('exchange program client', () => {
  it('uses the discriminators docs/programs.md publishes', () => {
    const hex = (b: Buffer) => b.toString('hex');
    expect(hex(EXCHANGE_IX.createMarket)).toBe('67e261ebc8bcfbfe');
    expect(hex(EXCHANGE_IX.deposit)).toBe('f223c68952e1f2b6');
    expect(hex(EXCHANGE_IX.withdraw)).toBe('b712469c946da122');
    expect(hex(EXCHANGE_IX.split)).toBe('7cbd1b2bd8289342');
    expect(hex(EXCHANGE_IX.merge)).toBe('948dec2fae7e456f');
    expect(hex(EXCHANGE_IX.redeem)).toBe('b80c569546c461e1');
    expect(hex(EXCHANGE_IX.settle)).toBe('af2ab957908366d4');
    expect(hex(EXCHANGE_ACCOUNT.market)).toBe('e76fb575abf32c48');
    expect(hex(EXCHANGE_ACCOUNT.escrow)).toBe('f2e955261a058e6d');
  });

  it('keys markets by the 16 UUID bytes and refuses anything that is not a UUID', () => {
    const seed = marketUuidSeed(UUID);
    expect(seed.toString('hex')).toBe('0f8fad5bd9cb469fa16570867728950e');
    expect(uuidFromSeed(seed)).toBe(UUID);
    expect(marketUuidSeed(UUID.toUpperCase()).equals(seed)).toBe(true);
    expect(() => marketUuidSeed('not-a-uuid')).toThrow(RangeError);
    expect(() => marketUuidSeed(`${UUID}0`)).toThrow(RangeError);
    const [market] = findClobMarketPda(UUID);
    expect(market.equals(PublicKey.findProgramAddressSync([Buffer.from('market'), seed], EXCHANGE_PROGRAM_ID)[0])).toBe(true);
    const [yes] = findClobOutcomeMintPda(UUID, 'yes');
    const [no] = findClobOutcomeMintPda(UUID, 'no');
    expect(yes.equals(no)).toBe(false);
    const usdc = Keypair.generate().publicKey;
    expect(findClobVaultAddress(UUID, usdc).equals(getAssociatedTokenAddressSync(usdc, market, true))).toBe(true);
  });

  it('derives the smart wallet as ["user_escrow", owner] and its token accounts as its ATAs', () => {
    const owner = Keypair.generate().publicKey;
    const usdc = Keypair.generate().publicKey;
    const [escrow] = findUserEscrowPda(owner);
    expect(escrow.equals(PublicKey.findProgramAddressSync([Buffer.from('user_escrow'), owner.toBuffer()], EXCHANGE_PROGRAM_ID)[0])).toBe(
      true,
    );
    expect(PublicKey.isOnCurve(escrow.toBytes())).toBe(false);
    expect(findEscrowTokenAddress(owner, usdc).equals(getAssociatedTokenAddressSync(usdc, escrow, true))).toBe(true);
  });

  it('round-trips the three account layouts and refuses foreign bytes', () => {
    const k = () => Keypair.generate().publicKey;
    const config = { operator: k(), usdcMint: k(), feeWallet: k(), takerFeeBps: 25, makerRebateBps: 5, bump: 254 };
    expect(decodeExchangeConfig(encodeExchangeConfig(config))).toEqual(config);
    const market = {
      marketUuid: marketUuidSeed(UUID),
      yesMint: k(),
      noMint: k(),
      vault: k(),
      completeSets: 18_446_744_073_709_551_615n,
      createdAt: 1_700_000_000n,
      resolvedAt: 0n,
      status: 'paused' as const,
      outcome: null,
      bump: 251,
    };
    const bytes = encodeClobMarket(market);
    expect(bytes.length).toBe(CLOB_MARKET_SIZE);
    expect(decodeClobMarket(bytes)).toEqual(market);
    expect(decodeClobMarket(encodeClobMarket({ ...market, status: 'resolved', outcome: 'no' })).outcome).toBe('no');
    const escrow = { owner: k(), createdAt: 5n, bump: 200 };
    expect(decodeUserEscrow(encodeUserEscrow(escrow))).toEqual(escrow);
    expect(() => decodeUserEscrow(bytes)).toThrow(RangeError);
    expect(() => decodeClobMarket(bytes.subarray(0, 100))).toThrow(RangeError);
    const corrupt = Buffer.from(bytes);
    corrupt[144] = 9;
    expect(() => decodeClobMarket(corrupt)).toThrow(RangeError);
  });

  it('maps a transaction error back to the exchange error name', () => {
    const code = EXCHANGE_ERRORS.LosingOutcome.code;
    expect(exchangeErrorFromTransactionError({ InstructionError: [0, { Custom: code }] })?.name).toBe('LosingOutcome');
    expect(exchangeErrorFromTransactionError({ InstructionError: [0, 'InvalidArgument'] })).toBeUndefined();
    expect(exchangeErrorFromTransactionError('AccountNotFound')).toBeUndefined();
  });
});
