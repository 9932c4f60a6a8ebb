/**
 * Property tests over random order streams: a few owners, prices clustered around 5000 so the
 * direct and both complementary crossings happen often, tiny quantities so rounding is fractional.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FEES,
  OrderBook,
  buyCommitment,
  orderNeed,
  type Fill,
  type OrderRequest,
  type PlaceResult,
} from '../../../src/domain/orderbook/index.js';

type Op = { kind: 'place'; req: Omit<OrderRequest, 'id'> } | { kind: 'cancel'; pick: number };

const placeOp = fc.record({
  owner: fc.constantFrom('a', 'b', 'c'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  outcome: fc.constantFrom('yes' as const, 'no' as const),
  // Scrambled so that fast-check's bias towards range bounds does not make every price round.
  priceBps: fc.integer({ min: 0, max: 600 }).map((k) => 4_700 + ((k * 7_919) % 601)),
  quantity: fc.integer({ min: 0, max: 39 }).map((k) => BigInt(1 + ((k * 17) % 40))),
  orderType: fc.constantFrom('limit' as const, 'limit' as const, 'limit' as const, 'market' as const),
  timeInForce: fc.constantFrom('gtc' as const, 'gtc' as const, 'ioc' as const, 'fok' as const),
  postOnly: fc.integer({ min: 0, max: 9 }).map((k) => k === 0),
  expiry: fc.integer({ min: 1, max: 10 }),
});

const ops = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: placeOp.map((req) => ({ kind: 'place' as const, req })) },
    { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'cancel' as const, pick })) },
  ),
  { minLength: 20, maxLength: 200, size: 'max' },
);

function apply(book: OrderBook, op: Op, n: number): PlaceResult | null {
  if (op.kind === 'cancel') {
    const resting = book.restingOrders();
    if (resting.length > 0) book.cancel(resting[op.pick % resting.length]!.id);
    return null;
  }
  const req: OrderRequest = { ...op.req, id: `q${n}` };
  if (req.postOnly && (req.orderType === 'market' || req.timeInForce !== 'gtc')) req.postOnly = false;
  if (req.orderType === 'market' && req.timeInForce === 'gtc') req.timeInForce = 'ioc'; // refused (validate.ts)
  try {
    return book.place(req);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('WOULD_TAKE');
    return null;
  }
}

function assertNotCrossed(book: OrderBook): void {
  const { bestBid, bestAsk } = book.top();
  const lt = (a: number | null, b: number | null) => a === null || b === null || a < b;
  expect(lt(bestBid.yes, bestAsk.yes)).toBe(true);
  expect(lt(bestBid.no, bestAsk.no)).toBe(true);
  // complementary crossing: YES bid + NO bid ≥ 10000 would mint; YES ask + NO ask ≤ 10000 would merge
  if (bestBid.yes !== null && bestBid.no !== null) expect(bestBid.yes + bestBid.no).toBeLessThan(10_000);
  if (bestAsk.yes !== null && bestAsk.no !== null) expect(bestAsk.yes + bestAsk.no).toBeGreaterThan(10_000);
}

/** USDC paid by users − received by users − vault intake − protocol take = 0 for every fill. */
function conservation(fill: Fill): bigint {
  const takerPays = fill.takerSide === 'buy';
  const makerPays = fill.makerSide === 'buy';
  const userIn = (takerPays ? fill.usdcAmount : 0n) + (makerPays ? fill.makerUsdc : 0n) + fill.takerFee;
  const userOut = (takerPays ? 0n : fill.usdcAmount) + (makerPays ? 0n : fill.makerUsdc) + fill.makerRebate;
  const vault = fill.fillType === 'complementary' ? fill.quantity : fill.fillType === 'sell_complementary' ? -fill.quantity : 0n;
  return userIn - userOut - vault - fill.protocolFee - fill.roundingDust;
}

describe('matching engine properties', () => {
  it('never crosses, respects limits and quantities, conserves money and tokens, keeps commitments exact', () => {
    fc.assert(
      fc.property(ops, (stream) => {
        const book = new OrderBook({ marketId: 'm' });
        const requests = new Map<string, OrderRequest>();
        const filled = new Map<string, bigint>();
        const paid = new Map<string, bigint>(); // USDC paid by buy orders (legs + taker fees)
        const restingCommit = new Map<string, bigint>(); // USDC committed when an order first rested
        const makerPaid = new Map<string, bigint>(); // USDC paid by a resting buy over its maker fills
        const tokens = new Map<string, bigint>(); // owner:outcome → net tokens
        const addTok = (owner: string, outcome: string, q: bigint) =>
          tokens.set(`${owner}:${outcome}`, (tokens.get(`${owner}:${outcome}`) ?? 0n) + q);
        const add = (map: Map<string, bigint>, id: string, v: bigint) => map.set(id, (map.get(id) ?? 0n) + v);
        stream.forEach((op, n) => {
          const result = apply(book, op, n);
          if (result !== null && op.kind === 'place') {
            const req = { ...op.req, id: `q${n}` };
            requests.set(req.id, req);
            for (const f of result.fills) {
              const maker = requests.get(f.makerOrderId)!;
              expect(f.quantity).toBeGreaterThan(0n);
              expect(conservation(f)).toBe(0n);
              expect(f.roundingDust).toBeGreaterThanOrEqual(0n);
              expect(f.protocolFee).toBeGreaterThanOrEqual(0n);
              // limits: the maker's price sets the fill, the taker's limit is never passed
              expect(f.makerPriceBps).toBe(maker.priceBps);
              if (req.side === 'buy') expect(f.priceBps).toBeLessThanOrEqual(req.priceBps);
              else expect(f.priceBps).toBeGreaterThanOrEqual(req.priceBps);
              if (f.fillType === 'direct') {
                expect(f.priceBps).toBe(f.makerPriceBps);
                expect(maker.outcome === req.outcome && maker.side !== req.side).toBe(true);
              } else {
                expect(f.priceBps + f.makerPriceBps).toBe(10_000);
                expect(maker.outcome !== req.outcome && maker.side === req.side).toBe(true);
                if (f.fillType === 'complementary') expect(req.priceBps + maker.priceBps).toBeGreaterThanOrEqual(10_000);
                else expect(req.priceBps + maker.priceBps).toBeLessThanOrEqual(10_000);
              }
              expect(f.makerOwner).not.toBe(f.takerOwner);
              add(filled, f.takerOrderId, f.quantity);
              add(filled, f.makerOrderId, f.quantity);
              if (req.side === 'buy') add(paid, req.id, f.usdcAmount + f.takerFee);
              if (maker.side === 'buy') {
                add(paid, maker.id, f.makerUsdc);
                add(makerPaid, maker.id, f.makerUsdc);
              }
              // tokens: direct moves, complementary mints a set, sell_complementary burns one
              const sign = (side: string) => (side === 'buy' ? 1n : -1n);
              addTok(f.takerOwner, f.outcome, sign(f.takerSide) * f.quantity);
              addTok(f.makerOwner, f.makerOutcome, sign(f.makerSide) * f.quantity);
            }
            if (result.order.resting && req.side === 'buy') restingCommit.set(req.id, result.order.committedAmount);
            expect(result.order.filled).toBe(filled.get(req.id) ?? 0n);
          }
          assertNotCrossed(book);
          // commitments recomputed from scratch equal the incremental ledger
          const usdc = new Map<string, bigint>();
          const tok = new Map<string, bigint>();
          for (const o of book.restingOrders()) {
            if (o.side === 'buy') add(usdc, o.owner, buyCommitment(o.remaining, o.priceBps));
            else add(tok, `${o.owner}:${o.outcome}`, o.remaining);
            expect(o.remaining + (filled.get(o.id) ?? 0n)).toBe(o.quantity);
          }
          for (const owner of ['a', 'b', 'c']) {
            expect(book.commitments.usdc(owner)).toBe(usdc.get(owner) ?? 0n);
            for (const outcome of ['yes', 'no'] as const)
              expect(book.commitments.tokens(owner, 'm', outcome)).toBe(tok.get(`${owner}:${outcome}`) ?? 0n);
          }
        });
        for (const [id, req] of requests) {
          expect(filled.get(id) ?? 0n).toBeLessThanOrEqual(req.quantity);
          // a buy never spends more than orderNeed held back at acceptance
          if (req.side === 'buy')
            expect(paid.get(id) ?? 0n).toBeLessThanOrEqual(orderNeed('buy', req.priceBps, req.quantity, DEFAULT_FEES).usdc);
        }
        // a resting buy's maker legs, over all its fills, never exceed the committedAmount it rested with
        for (const [id, commit] of restingCommit) expect(makerPaid.get(id) ?? 0n).toBeLessThanOrEqual(commit);
        // every set minted has a YES and a NO; every merge burns one of each
        let yes = 0n;
        let no = 0n;
        for (const [key, q] of tokens) {
          if (key.endsWith(':yes')) yes += q;
          else no += q;
        }
        expect(yes).toBe(no);
      }),
      { numRuns: 200 },
    );
  }, 120_000); // 200 random streams, CPU-bound: 24 s on a loaded machine (30 s default); a limit, not a target

  it('a book restored from its snapshot answers every later order identically', () => {
    fc.assert(
      fc.property(ops, ops, (prefix, suffix) => {
        const live = new OrderBook({ marketId: 'm' });
        prefix.forEach((op, n) => apply(live, op, n));
        const restored = OrderBook.restore(
          { marketId: 'm' },
          JSON.parse(
            JSON.stringify(live.snapshot(), (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)),
            (_k, v) => (typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v),
          ),
        );
        expect(restored.snapshot()).toEqual(live.snapshot());
        expect(restored.depth(50)).toEqual(live.depth(50));
        expect(restored.commitments.entries()).toEqual(live.commitments.entries());
        suffix.forEach((op, n) => {
          const a = apply(live, op, 1000 + n);
          const b = apply(restored, op, 1000 + n);
          expect(b).toEqual(a);
        });
        expect(restored.snapshot()).toEqual(live.snapshot());
      }),
      { numRuns: 100 },
    );
  });
});
