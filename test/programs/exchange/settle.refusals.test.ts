/**
 * Every refusal of settle changes nothing: each case snapshots every account the instruction
 * names (smart wallets, their token accounts, order and receipt accounts, market, vault, mints,
 * fee wallet), submits, checks the error and the refusal line the keeper reads, and compares.
 */
import { randomUUID } from 'node:crypto';
import type { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exchangeErrorFromTransactionError,
  getClobMarketStatusInstruction,
  getWithdrawInstruction,
  orderSigningBytes,
  parseSettleRefusal,
} from '@pmx/programs';
import { SettleHarness, signText, USDC, type ManualFill, type ManualOptions, type TestOrder } from './settle-harness.js';

let s: SettleHarness;
let m: string;
let buyer: Keypair;
let seller: Keypair;
beforeAll(async () => {
  s = await SettleHarness.open();
  m = await s.createMarket();
  buyer = await s.trader(50n * USDC);
  seller = await s.trader(0n, m, 50n * USDC);
});
afterAll(async () => {
  await s.close();
});

const bid = (t: Partial<Parameters<SettleHarness['order']>[2]> = {}, owner = buyer, market = m) =>
  s.order(owner, market, { side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC, ...t });
const ask = (t: Partial<Parameters<SettleHarness['order']>[2]> = {}, owner = seller, market = m) =>
  s.order(owner, market, { side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC, ...t });

/** Sends, expects `error` (an exchange error name or the raw err), and that nothing changed. */
async function refused(fills: ManualFill[], error: string, opts: ManualOptions = {}, market = m): Promise<string[]> {
  let before: string[] = [];
  let keys: PublicKey[] = [];
  const res = await s.sendManual(market, fills, {
    ...opts,
    beforeSend: (k) => {
      keys = k;
      before = s.snapshot(k);
    },
  });
  expect(res.err).not.toBeNull();
  expect(exchangeErrorFromTransactionError(res.err)?.name ?? JSON.stringify(res.err)).toBe(error);
  expect(s.snapshot(keys)).toEqual(before);
  return res.logs;
}

describe('settle refusals change nothing', () => {
  it("an order without its owner's signature: none at all, another key's, or another order's", async () => {
    const b = bid();
    const fill = { taker: b, maker: ask(), quantity: 1n * USDC };
    // No Ed25519 instruction in the transaction: the proof reference names the settle instruction itself.
    const logs = await refused([fill], 'OrderSignatureMissing', { proof: () => null });
    expect(parseSettleRefusal(logs)).toMatchObject({ error: 'OrderSignatureMissing', fillIds: [expect.any(String)] });
    // Mallory signs the buyer's order text with her own key: a valid Ed25519 proof, of the wrong key.
    const mallory = await s.trader(0n);
    const signedBy = (o: TestOrder, k: Keypair) => ({
      publicKey: k.publicKey.toBytes(),
      signature: signText(k, orderSigningBytes(o.message)),
      message: orderSigningBytes(o.message),
    });
    await refused([fill], 'OrderSignatureMissing', { proof: (o) => signedBy(o, o === b ? mallory : o.owner) });
    // The buyer's reference points at the seller's proof: a signed order, but not this one.
    await refused([fill], 'OrderMismatch', { proof: (o) => (o === b ? null : signedBy(o, o.owner)) });
    // Signed by its owner, but not the canonical text (uppercase hex).
    const upper = (o: TestOrder) => Buffer.from(`PMX Order:\n${Buffer.from(o.message).toString('hex').toUpperCase()}`);
    await refused([fill], 'InvalidOrderMessage', {
      proof: (o) => ({ publicKey: o.owner.publicKey.toBytes(), signature: signText(o.owner, upper(o)), message: upper(o) }),
    });
  });

  it('a forged signature fails the whole transaction in the Ed25519 precompile', async () => {
    const b = bid();
    const forged = Uint8Array.from(b.signature);
    forged[0]! ^= 1;
    await refused([{ taker: b, maker: ask(), quantity: 1n * USDC }], '{"InstructionError":[0,{"Custom":2}]}', {
      proof: (o) => ({
        publicKey: o.owner.publicKey.toBytes(),
        signature: o === b ? forged : o.signature,
        message: orderSigningBytes(o.message),
      }),
    });
  });

  it('wrong market, prices that do not cross, orders that cannot fill each other, self-trade', async () => {
    const other = await s.createMarket();
    const logs = await refused([{ taker: bid({}, buyer, other), maker: ask(), quantity: 1n }], 'WrongMarket');
    expect(parseSettleRefusal(logs)).toMatchObject({ error: 'WrongMarket', owner: buyer.publicKey.toBase58() });
    await refused([{ taker: bid({ priceBps: 5999 }), maker: ask({ priceBps: 6000 }), quantity: 1n }], 'PriceNotCrossing');
    // The taker sells at 0.61 minimum into a bid of 0.60.
    await refused([{ taker: ask({ priceBps: 6100 }), maker: bid({ priceBps: 6000 }), quantity: 1n }], 'PriceNotCrossing');
    // Complementary needs prices summing to at least 1; sell_complementary at most 1.
    await refused(
      [{ taker: bid({ priceBps: 6000 }), maker: bid({ outcome: 'no', priceBps: 3999 }, seller), quantity: 1n }],
      'PriceNotCrossing',
    );
    await refused(
      [{ taker: ask({ priceBps: 6000 }), maker: ask({ outcome: 'no', priceBps: 4001 }, buyer), quantity: 1n }],
      'PriceNotCrossing',
    );
    await refused([{ taker: bid(), maker: bid({}, seller), quantity: 1n }], 'InvalidFillType');
    await refused([{ taker: bid(), maker: ask({ outcome: 'no' }), quantity: 1n }], 'InvalidFillType');
    await refused([{ taker: bid({}, seller), maker: ask(), quantity: 1n }], 'SelfTrade');
  });

  it('an order filled beyond its signed quantity across two transactions', async () => {
    const b = bid({ quantity: 10n * USDC });
    const first = await s.sendManual(m, [{ taker: b, maker: ask(), quantity: 6n * USDC }]);
    expect(first.err).toBeNull();
    const logs = await refused([{ taker: b, maker: ask(), quantity: 5n * USDC }], 'OrderOverfilled');
    expect(parseSettleRefusal(logs)).toMatchObject({ error: 'OrderOverfilled', party: 'taker', owner: buyer.publicKey.toBase58() });
    // What is left still settles.
    expect((await s.sendManual(m, [{ taker: b, maker: ask(), quantity: 4n * USDC }])).err).toBeNull();
    expect(s.orderState(b)!.filled).toBe(10n * USDC);
  });

  it('an expired order', async () => {
    const b = bid({ expiry: BigInt(s.ledger.unixTimestamp + 60) });
    s.ledger.warpTime(61);
    const logs = await refused([{ taker: b, maker: ask(), quantity: 1n }], 'OrderExpired');
    expect(parseSettleRefusal(logs)).toMatchObject({ error: 'OrderExpired', order: expect.any(String), owner: buyer.publicKey.toBase58() });
  });

  it('a fill whose receipt exists (sent again in a new transaction)', async () => {
    const fill = { taker: bid(), maker: ask(), quantity: 1n * USDC, fillId: randomUUID() };
    expect((await s.sendManual(m, [fill])).err).toBeNull();
    const logs = await refused([fill], 'FillAlreadySettled');
    expect(parseSettleRefusal(logs)).toMatchObject({ error: 'FillAlreadySettled', fillIds: [fill.fillId] });
    // Twice in one batch: the second finds the first's receipt.
    const twice = { ...fill, fillId: randomUUID() };
    await refused([twice, twice], 'FillAlreadySettled');
  });

  it("a smart wallet that lacks the USDC or tokens (a withdrawal behind the API's back) names the party", async () => {
    const poor = await s.trader(1n * USDC);
    const logs = await refused([{ taker: bid({}, poor), maker: ask(), quantity: 2n * USDC }], 'InsufficientBalance');
    expect(parseSettleRefusal(logs)).toMatchObject({ error: 'InsufficientBalance', party: 'taker', owner: poor.publicKey.toBase58() });
    const tokenless = await s.trader(0n, m, 1n * USDC);
    const logs2 = await refused([{ taker: bid(), maker: ask({}, tokenless), quantity: 2n * USDC }], 'InsufficientBalance');
    expect(parseSettleRefusal(logs2)).toMatchObject({ party: 'maker', owner: tokenless.publicKey.toBase58() });
    // Enough when the order was placed, withdrawn since.
    const b = bid({}, poor, m);
    await s.h.sendOk([getWithdrawInstruction({ owner: poor.publicKey, usdcMint: s.h.usdcMint, amount: 1n * USDC })], [poor]);
    await refused([{ taker: ask(), maker: b, quantity: 1n }], 'InsufficientBalance');
  });

  it('anyone but the operator, or the operator not signing', async () => {
    const mallory = await s.trader(0n);
    await refused([{ taker: bid(), maker: ask(), quantity: 1n }], 'Unauthorized', { signer: mallory });
    await refused([{ taker: bid(), maker: ask(), quantity: 1n }], 'MissingSigner', {
      signer: mallory,
      operatorKey: s.h.operator.publicKey,
    });
  });

  it('an owner who signed two orders with one nonce: the account keeps the first', async () => {
    const first = bid({ nonce: 777_000n });
    expect((await s.sendManual(m, [{ taker: first, maker: ask(), quantity: 1n }])).err).toBeNull();
    await refused([{ taker: bid({ nonce: 777_000n, priceBps: 6500 }), maker: ask(), quantity: 1n }], 'OrderMismatch', {
      alwaysProve: true,
    });
  });

  it('a paused or resolved market', async () => {
    const market = await s.createMarket();
    const holder = await s.trader(0n, market, 5n * USDC);
    const b = bid({}, buyer, market);
    const a = ask({}, holder, market);
    const status = (action: 'pause' | 'resume' | 'resolve') =>
      s.h.sendOk(
        [getClobMarketStatusInstruction({ operator: s.h.operator.publicKey, marketUuid: market, action, outcome: 0 })],
        [s.h.operator],
      );
    await status('pause');
    await refused([{ taker: b, maker: a, quantity: 1n }], 'MarketPaused', {}, market);
    await status('resume');
    await status('resolve');
    await refused([{ taker: b, maker: a, quantity: 1n }], 'MarketResolved', {}, market);
  });
});

describe('settle is not blocked by griefing', () => {
  it("lamports sent to a fill's receipt address beforehand do not stop the fill", async () => {
    const fill = { taker: bid(), maker: ask(), quantity: 1n * USDC, fillId: randomUUID() };
    const { findFillReceiptPda } = await import('@pmx/programs');
    await s.ledger.airdrop(findFillReceiptPda(fill.fillId)[0], 1_000_000n);
    expect((await s.sendManual(m, [fill])).err).toBeNull();
    expect(s.receipt(fill.fillId)).toMatchObject({ quantity: 1n * USDC });
  });
});
