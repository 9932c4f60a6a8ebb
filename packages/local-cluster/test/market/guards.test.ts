/**
 * The program's refusals through the real embedded ledger: creator-only init_mints, trading before
 * the mints exist, bad create arguments, forged accounts, and all-or-nothing execution.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, type TransactionInstruction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import bs58 from 'bs58';
import {
  type AccountFilter,
  configAccountFilters,
  type CreateMarketInput,
  findMarketPda,
  getBuyInstruction,
  getClaimProtocolFeesInstruction,
  getCreateMarketInstruction,
  getInitializeInstruction,
  getInitMintsInstruction,
  getRedeemInstruction,
  getResolveInstruction,
  MARKET_PROGRAM_ID,
  marketAccountFilters,
} from '@pmx/programs';
import { MarketHarness, USDC } from './harness.js';

let h: MarketHarness;
let creator: Keypair, alice: Keypair;

beforeAll(async () => {
  h = await MarketHarness.open();
  [creator, alice] = await Promise.all([h.wallet(), h.wallet()]);
});
afterAll(async () => h?.close());

function createIx(overrides: Partial<CreateMarketInput> = {}): TransactionInstruction {
  return getCreateMarketInstruction({
    marketId: h.marketCounter() + 1n,
    creator: creator.publicKey,
    usdcMint: h.usdcMint,
    title: 'Guarded',
    description: 'Refusals',
    yesTicker: 'YES',
    noTicker: 'NO',
    resolutionTime: BigInt(h.ledger.unixTimestamp + 3600),
    seedAmount: 5n * USDC,
    tradeFeeBps: 200,
    ...overrides,
  });
}

describe('market program guards', () => {
  it('refuses a second initialize and bad create arguments', async () => {
    const again = getInitializeInstruction({ admin: h.admin.publicKey, usdcMint: h.usdcMint, protocolFeeWallet: h.protocolFeeWallet });
    expect(await h.sendErr([again], [h.admin])).toBe('AlreadyInitialized');
    expect(await h.sendErr([createIx({ tradeFeeBps: 401 })], [creator])).toBe('InvalidTradeFee');
    expect(await h.sendErr([createIx({ seedAmount: 999_999n })], [creator])).toBe('InvalidSeed');
    expect(await h.sendErr([createIx({ title: 'x'.repeat(81) })], [creator])).toBe('StringTooLong');
    expect(await h.sendErr([createIx({ yesTicker: 'ELEVENCHARS' })], [creator])).toBe('StringTooLong');
    expect(await h.sendErr([createIx({ resolutionTime: 0n })], [creator])).toBe('InvalidResolutionTime');
  });

  it('fits the longest ASCII title, description and tickers in one transaction', async () => {
    const id = h.marketCounter() + 1n;
    await h.sendOk(
      [
        createIx({
          marketId: id,
          title: 'T'.repeat(80),
          description: 'D'.repeat(120),
          yesTicker: 'Y'.repeat(10),
          noTicker: 'N'.repeat(10),
        }),
      ],
      [creator],
    );
    expect(h.market(id).description).toBe('D'.repeat(120));
  });

  it('lets only the creator initialise the mints, once; trades need them', async () => {
    const id = h.marketCounter() + 1n;
    await h.sendOk([createIx({ marketId: id })], [creator]);
    expect(await h.sendErr(h.buyIxs(id, alice.publicKey, 'YES', USDC).slice(1), [alice])).toBe('MintsNotInitialized');
    expect(await h.sendErr([getInitMintsInstruction({ marketId: id, creator: alice.publicKey })], [alice])).toBe('Unauthorized');
    await h.sendOk([getInitMintsInstruction({ marketId: id, creator: creator.publicKey })], [creator]);
    expect(await h.sendErr([getInitMintsInstruction({ marketId: id, creator: creator.publicKey })], [creator])).toBe(
      'MintsAlreadyInitialized',
    );
    expect(await h.sendErr([createIx({ marketId: id })], [creator])).toBe('AlreadyInitialized');
    // the indexer's getProgramAccounts filters select exactly this creator's markets
    const matches = (data: Buffer, f: AccountFilter) => {
      if (f.dataSize !== undefined) return data.length === f.dataSize;
      const bytes = Buffer.from(bs58.decode(f.memcmp!.bytes));
      return data.subarray(f.memcmp!.offset, f.memcmp!.offset + bytes.length).equals(bytes);
    };
    const listed = (filters: AccountFilter[]) =>
      h.ledger.getProgramAccounts(MARKET_PROGRAM_ID).filter((a) => filters.every((f) => matches(Buffer.from(a.account.data), f)));
    expect(listed(marketAccountFilters({ creator: creator.publicKey })).map((a) => a.address)).toContain(findMarketPda(id)[0].toBase58());
    expect(listed(marketAccountFilters({ creator: alice.publicKey }))).toEqual([]);
    expect(listed(marketAccountFilters({ status: 'active' })).length).toBe(2);
    expect(listed(marketAccountFilters({ status: 'resolved' }))).toEqual([]);
    expect(listed(configAccountFilters()).length).toBe(1);
  });

  it('keeps the counter at the highest id when ids are reserved out of order', async () => {
    const top = h.marketCounter();
    await h.sendOk([createIx({ marketId: top + 5n })], [creator]);
    await h.sendOk([createIx({ marketId: top + 3n })], [creator]);
    expect(h.marketCounter()).toBe(top + 5n);
  });

  it('refuses a forged vault and burning someone else’s tokens', async () => {
    const id = await h.createMarket(creator, { seed: 50n * USDC });
    const forged = getBuyInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint, amount: USDC, minOut: 0n });
    forged.keys[2] = { ...forged.keys[2]!, pubkey: getAssociatedTokenAddressSync(h.usdcMint, creator.publicKey) };
    expect(await h.sendErr([forged], [alice])).toBe('InvalidAccount');
    await h.sendOk(h.buyIxs(id, alice.publicKey, 'YES', USDC), [alice]);
    await h.sendOk(h.buyIxs(id, creator.publicKey, 'NO', USDC), [creator]);
    h.ledger.warpTime(3601);
    await h.sendOk(
      [getResolveInstruction({ marketId: id, creator: creator.publicKey, usdcMint: h.usdcMint, winningSide: 'YES' })],
      [creator],
    );
    const thief = getRedeemInstruction({
      marketId: id,
      side: 'YES',
      owner: creator.publicKey,
      usdcMint: h.usdcMint,
      ownerOutcome: getRedeemInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint }).keys[5]!.pubkey,
    });
    expect(await h.sendErr([thief], [creator])).toBe('InvalidAccount');
    expect(await h.sendErr(h.buyIxs(id, alice.publicKey, 'YES', USDC), [alice])).toBe('MarketNotActive');
  });

  it('is all or nothing: a failing instruction undoes the buy before it', async () => {
    const id = await h.createMarket(creator, { seed: 50n * USDC });
    const usdcBefore = h.usdc(alice.publicKey);
    const stateBefore = h.market(id);
    const ixs = [...h.buyIxs(id, alice.publicKey, 'YES', 2n * USDC), ...h.buyIxs(id, alice.publicKey, 'NO', 2n * USDC, 10n ** 15n)];
    expect(await h.sendErr(ixs, [alice])).toBe('SlippageExceeded');
    expect(h.usdc(alice.publicKey)).toBe(usdcBefore);
    expect(h.tokens(alice.publicKey, id, 'YES')).toBe(0n);
    expect(h.market(id)).toEqual(stateBefore);
  });

  it('surfaces SPL Token failures and refuses protocol fees to a foreign account', async () => {
    const id = await h.createMarket(creator, { seed: 50n * USDC });
    const poor = await h.wallet(USDC);
    const err = await h.sendErr(h.buyIxs(id, poor.publicKey, 'YES', 2n * USDC), [poor]);
    expect(err).toBe(JSON.stringify({ InstructionError: [1, { Custom: 1 }] })); // SPL Token InsufficientFunds
    await h.sendOk(h.buyIxs(id, poor.publicKey, 'YES', USDC / 2n), [poor]);
    const claim = getClaimProtocolFeesInstruction({
      marketId: id,
      caller: alice.publicKey,
      usdcMint: h.usdcMint,
      protocolFeeWallet: h.protocolFeeWallet,
      protocolFeeUsdc: getAssociatedTokenAddressSync(h.usdcMint, alice.publicKey),
    });
    expect(await h.sendErr([claim], [alice])).toBe('InvalidAccount');
  });

  it('refuses a signer that did not sign', async () => {
    const id = await h.createMarket(creator, { seed: 50n * USDC });
    const ix = getBuyInstruction({ marketId: id, side: 'YES', owner: alice.publicKey, usdcMint: h.usdcMint, amount: USDC, minOut: 0n });
    ix.keys[0] = { ...ix.keys[0]!, isSigner: false };
    const payer = Keypair.generate();
    await h.ledger.airdrop(payer.publicKey, 1_000_000_000n);
    expect(await h.sendErr([ix], [payer])).toBe('MissingSigner');
  });
});
