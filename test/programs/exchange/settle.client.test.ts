/**
 * The settlement client without a cluster: account and data codecs (offsets of packages/programs/docs/programs.md),
 * the refusal line the keeper parses, the signed-limit guard with worked numbers, and the
 * assembly's refusals of fills it must never build.
 */
import { randomUUID } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  buildSettlementBatch,
  decodeFillReceipt,
  decodeOrderMessage,
  decodeOrderState,
  decodeSettleData,
  EMPTY_TOTALS,
  encodeFillReceipt,
  encodeOrderMessage,
  encodeOrderState,
  encodeSettleData,
  EXCHANGE_IX,
  findClobMarketPda,
  findOrderStatePda,
  formatFillRefusal,
  formatOrderRefusal,
  getExtendLookupTableInstructions,
  marketLookupTableAddresses,
  missingLookupTableAddresses,
  parseSettleRefusal,
  SettlementAssemblyError,
  type SettlementFill,
  withinSignedLimit,
} from '@pmx/programs';
import { outboundTag } from '../../../src/services/outbound/outbound-memo.js';

const market = randomUUID();
const marketKey = findClobMarketPda(market)[0];
const msg = (over: Partial<Parameters<typeof encodeOrderMessage>[0]> = {}) =>
  encodeOrderMessage({
    market: marketKey.toBytes(),
    owner: Keypair.generate().publicKey.toBytes(),
    side: 'buy',
    outcome: 'yes',
    priceBps: 6000,
    quantity: 10n,
    nonce: 1n,
    expiry: 2_000_000_000n,
    ...over,
  });

describe('settlement codecs', () => {
  it('OrderState round-trips at the documented offsets (u128 notional)', () => {
    const message = msg();
    const state = {
      message,
      filled: 7n,
      notional: (1n << 70n) + 5n,
      usdc: 4n,
      takerUsdc: 3n,
      feesPaid: 2n,
      rebates: 1n,
      fills: 9,
      bump: 254,
    };
    const b = encodeOrderState(state);
    expect(b.length).toBe(168);
    expect(b.subarray(8, 100)).toEqual(Buffer.from(message));
    expect(b.readBigUInt64LE(100)).toBe(7n);
    expect(b.readBigUInt64LE(116)).toBe(64n); // high half of the notional
    expect(decodeOrderState(b)).toEqual(state);
    expect(() => decodeOrderState(b.subarray(0, 167))).toThrow(RangeError);
  });

  it('FillReceipt round-trips', () => {
    const r = {
      fillUuid: new Uint8Array(16).fill(3),
      market: marketKey,
      takerOrder: Keypair.generate().publicKey,
      makerOrder: Keypair.generate().publicKey,
      fillType: 'sell_complementary' as const,
      bump: 250,
      priceBps: 6000,
      quantity: 5n,
      takerUsdc: 3n,
      makerUsdc: 2n,
      takerFee: 1n,
      makerRebate: 0n,
      protocolFee: 1n,
      roundingDust: 0n,
      slot: 77n,
      settledAt: 1_900_000_000n,
    };
    const b = encodeFillReceipt(r);
    expect(b.length).toBe(208);
    expect(b.readUInt8(120)).toBe(2);
    expect(decodeFillReceipt(b)).toEqual(r);
  });

  it('settle data: a 16-byte tag, 2 bytes per order, 26 per fill, exact length', () => {
    const d = {
      tag: new Uint8Array(16).fill(7),
      orders: [
        { proofIx: 1, proofEntry: 0 },
        { proofIx: 0xff, proofEntry: 0 },
      ],
      fills: [{ fillUuid: new Uint8Array(16).fill(9), taker: 0, maker: 1, quantity: 123n }],
    };
    const b = encodeSettleData(d);
    expect(b.subarray(0, 8)).toEqual(EXCHANGE_IX.settle);
    expect(b.length).toBe(8 + 16 + 1 + 4 + 1 + 26);
    expect(b.subarray(8, 24)).toEqual(Buffer.alloc(16, 7));
    expect(decodeSettleData(b)).toEqual(d);
    expect(() => decodeSettleData(Buffer.concat([b, Buffer.from([0])]))).toThrow(RangeError);
    expect(() => decodeSettleData(b.subarray(0, 20))).toThrow(RangeError);
    expect(() => encodeSettleData({ ...d, tag: new Uint8Array(15) })).toThrow(RangeError);
  });

  it('the refusal line round-trips through the parser', () => {
    const owner = Keypair.generate().publicKey.toBase58();
    const id = randomUUID();
    expect(
      parseSettleRefusal([
        'Program log: x',
        `Program log: ${formatFillRefusal('InsufficientBalance', id, 'maker', owner, 'needs 5 USDC, has 4')}`,
      ]),
    ).toEqual({ error: 'InsufficientBalance', fillIds: [id], party: 'maker', owner, order: null, detail: 'needs 5 USDC, has 4' });
    expect(parseSettleRefusal([`Program log: ${formatOrderRefusal('OrderExpired', 'Addr', owner, [id, id], 'expired')}`])).toMatchObject({
      error: 'OrderExpired',
      fillIds: [id, id],
      order: 'Addr',
      party: null,
    });
    expect(parseSettleRefusal(['Program log: AnchorError occurred.'])).toBeNull();
  });
});

describe('the signed limit, independently of the formulas', () => {
  // A buy of 3 at 0.3333: exact 0.9999 → ceil 1, plus the one unit of complementary slack = 2.
  const buy = decodeOrderMessage(msg({ side: 'buy', priceBps: 3333, quantity: 3n }));
  const sell = decodeOrderMessage(msg({ side: 'sell', priceBps: 3333, quantity: 3n }));
  it('a buyer pays at most ceil(filled × limit / 10000) + 1', () => {
    expect(withinSignedLimit(buy, { ...EMPTY_TOTALS, filled: 3n, usdc: 2n })).toBe(true);
    expect(withinSignedLimit(buy, { ...EMPTY_TOTALS, filled: 3n, usdc: 3n })).toBe(false);
  });
  it("a seller has no such floor: the engine's caps may leave it below floor(filled × limit) − 1", () => {
    expect(withinSignedLimit(sell, { ...EMPTY_TOTALS, filled: 30_000_000n, usdc: 0n })).toBe(true);
  });
});

describe('the assembly refuses what it must not build', () => {
  const operator = Keypair.generate().publicKey;
  const ctx = {
    operator,
    marketUuid: market,
    usdcMint: Keypair.generate().publicKey,
    feeWallet: Keypair.generate().publicKey,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    tag: outboundTag(randomUUID()),
    orderStates: new Map(),
  };
  const signed = (m: Uint8Array) => ({ message: m, signature: new Uint8Array(64) });
  const fill = (taker: Uint8Array, maker: Uint8Array, over: Partial<SettlementFill> = {}): SettlementFill => ({
    fillId: randomUUID(),
    fillType: 'direct',
    quantity: 1n,
    takerOrder: signed(taker),
    makerOrder: signed(maker),
    ...over,
  });

  it('an order of another market, a fill type the orders do not make, a bad message', () => {
    const ask = msg({ side: 'sell' });
    expect(() => buildSettlementBatch([fill(msg({ market: Keypair.generate().publicKey.toBytes() }), ask)], ctx)).toThrow(
      SettlementAssemblyError,
    );
    expect(() => buildSettlementBatch([fill(msg(), ask, { fillType: 'complementary' })], ctx)).toThrow(/not complementary/);
    expect(() => buildSettlementBatch([fill(msg().subarray(0, 91), ask)], ctx)).toThrow(/92 bytes/);
  });

  it('an order account holding another order of the same owner and nonce', () => {
    const bid = msg();
    const owner = new PublicKey(decodeOrderMessage(bid).owner);
    const other = msg({ owner: owner.toBytes(), priceBps: 6100 });
    const orderStates = new Map([[findOrderStatePda(owner, 1n)[0].toBase58(), { message: other, ...EMPTY_TOTALS, bump: 255 }]]);
    expect(() => buildSettlementBatch([fill(bid, msg({ side: 'sell' }))], { ...ctx, orderStates })).toThrow(
      expect.objectContaining({ code: 'ORDER_NONCE_REUSED' }),
    );
  });

  it('stops before a bad fill and settles what precedes it', () => {
    const ok = fill(msg(), msg({ side: 'sell' }));
    // Both orders on chain already, so the good fill fits a transaction without a lookup table.
    const orderStates = new Map(
      [ok.takerOrder, ok.makerOrder].map((o) => {
        const m = decodeOrderMessage(o.message);
        return [
          findOrderStatePda(new PublicKey(m.owner), m.nonce)[0].toBase58(),
          { message: o.message, ...EMPTY_TOTALS, bump: 255 },
        ] as const;
      }),
    );
    const b = buildSettlementBatch([ok, fill(msg(), msg({ side: 'sell' }), { fillType: 'complementary' })], { ...ctx, orderStates });
    expect(b.kind).toBe('settle');
    expect(b.fills.map((f) => f.fillId)).toEqual([ok.fillId]);
  });
});

describe('lookup tables', () => {
  it("lists the market's fixed accounts and each trader's four, without what a table holds", () => {
    const ref = {
      operator: Keypair.generate().publicKey,
      marketUuid: market,
      usdcMint: Keypair.generate().publicKey,
      feeWallet: Keypair.generate().publicKey,
    };
    const fixed = marketLookupTableAddresses(ref);
    expect(fixed).toHaveLength(11);
    const f = {
      fillId: randomUUID(),
      fillType: 'direct' as const,
      quantity: 1n,
      takerOrder: { message: msg(), signature: new Uint8Array(64) },
      makerOrder: { message: msg({ side: 'sell' }), signature: new Uint8Array(64) },
    };
    expect(missingLookupTableAddresses([f, f], ref, [])).toHaveLength(11 + 8);
    const extend = getExtendLookupTableInstructions({
      table: Keypair.generate().publicKey,
      authority: ref.operator,
      payer: ref.operator,
      addresses: missingLookupTableAddresses([f], ref, []),
    });
    expect(extend).toHaveLength(1);
  });
});
