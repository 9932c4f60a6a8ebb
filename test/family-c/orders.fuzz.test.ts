/**
 * Hostile order traffic on a real market: well-formed and malformed messages, foreign and forged
 * signatures, extreme prices, quantities, nonces and expiries, cancels of unknown and foreign
 * orders. Every answer is below 500, and a refused placement stores nothing.
 */
import fc from 'fast-check';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signText } from '../helpers/sign.js';
import { createClobMarket, depositedTrader, openClobHarness, post, signedOrder, USDC, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const orders = async () =>
  Number(
    (
      await h.daemon.db.db
        .selectFrom('clob_orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('order fuzz', () => {
  it('answers below 500 and stores nothing it refused', async () => {
    const market = await createClobMarket(h);
    const trader = await depositedTrader(h, 100n * USDC);
    const stranger = Keypair.generate();
    const statuses = new Map<number, number>();
    const now = Math.floor(Date.now() / 1000);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          signer: fc.constantFrom(trader, trader, stranger),
          owner: fc.constantFrom(trader, trader, stranger),
          side: fc.constantFrom('buy' as const, 'sell' as const),
          outcome: fc.constantFrom('yes' as const, 'no' as const),
          priceBps: fc.oneof(fc.integer({ min: 0, max: 10_001 }), fc.constantFrom(1, 9999, 10_000, 65_535)),
          quantity: fc.oneof(
            { arbitrary: fc.bigInt({ min: 1n, max: 5_000_000n }), weight: 4 },
            fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
            fc.constantFrom(1n, 10n ** 14n, 10n ** 14n + 1n),
          ),
          nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
          expiry: fc.oneof({ arbitrary: fc.constant(now + 3600), weight: 4 }, fc.integer({ min: -1, max: now + 40 * 86_400 })),
          orderType: fc.constantFrom(undefined, 'limit' as const, 'market' as const),
          timeInForce: fc.constantFrom(undefined, 'gtc' as const, 'ioc' as const, 'fok' as const),
          postOnly: fc.boolean(),
          mangle: fc.constantFrom('none', 'none', 'none', 'signature', 'field', 'market'),
        }),
        async (o) => {
          const body = signedOrder(o.signer, {
            market: market.marketPubkey,
            side: o.side,
            outcome: o.outcome,
            priceBps: o.priceBps,
            quantity: o.quantity,
            nonce: o.nonce,
            expiry: o.expiry,
            orderType: o.orderType,
            timeInForce: o.timeInForce,
            postOnly: o.postOnly,
          });
          const message = body.orderMessage as Record<string, unknown>;
          if (o.signer !== o.owner) message.owner = o.owner.publicKey.toBase58();
          if (o.mangle === 'signature') body.signature = Buffer.from(signText(o.signer, 'something else')).toString('base64');
          if (o.mangle === 'field') message.priceBps = Number(message.priceBps) + 1;
          if (o.mangle === 'market') message.market = Keypair.generate().publicKey.toBase58();
          const before = await orders();
          const res = await post(h, '/v2/clob/orders', body);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.statusCode !== 200) {
            expect(typeof res.json().error).toBe('string');
            expect(await orders()).toBe(before);
          }
        },
      ),
      { numRuns: 300 },
    );
    // Refusals of every kind were reached, and some orders got through.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(403)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
  }, 120_000);

  it('cancels of unknown, malformed and foreign orders answer 4xx', async () => {
    for (const [id, body] of [
      ['00000000-0000-4000-8000-000000000000', { pubkey: Keypair.generate().publicKey.toBase58(), signature: 'A'.repeat(86) + '==' }],
      ['not-a-uuid', { pubkey: Keypair.generate().publicKey.toBase58(), signature: 'A'.repeat(86) + '==' }],
      ['00000000-0000-4000-8000-000000000000', { pubkey: 'x', signature: 'y' }],
    ] as const) {
      const res = await post(h, `/v2/clob/orders/${id}/cancel`, body);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const stale = await post(h, '/v2/clob/orders/cancel-all', {
      pubkey: Keypair.generate().publicKey.toBase58(),
      marketId: '*',
      timestamp: 0,
      signature: 'A'.repeat(86) + '==',
    });
    expect(stale.statusCode).toBe(403);
  });
});
