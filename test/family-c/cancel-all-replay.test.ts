/**
 * Issue 25, part 5: a cancel-all proof (`PMX Cancel All:<market|*>:<unix seconds>`) works once.
 * Replayed within its 60 s window, it answers 200 with `cancelled: []` and leaves the orders
 * placed after its first use resting; another proof (a new timestamp) still cancels them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelAllText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import { createClobMarket, depositedTrader, get, openClobHarness, place, post, USDC, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
});
afterAll(async () => h?.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('cancel-all replay', () => {
  it.each(['*', 'market'])(
    'a replay of a used %s proof within its window cancels nothing',
    async (scope) => {
      const market = await createClobMarket(h);
      const maker = await depositedTrader(h, 50n * USDC);
      const mk = maker.publicKey.toBase58();
      const marketId = scope === '*' ? '*' : market.id;
      const bid = () => place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 5n * USDC });
      const ts = Math.floor(Date.now() / 1000);
      const proof = { pubkey: mk, marketId, timestamp: ts, signature: b64(signText(maker, cancelAllText(marketId, ts))) };

      const first = await bid();
      const used = await post(h, '/v2/clob/orders/cancel-all', proof);
      expect(used.statusCode).toBe(200);
      expect(used.json()).toEqual({ success: true, cancelled: [first.orderId] });

      const placedAfter = await bid();
      const replay = await post(h, '/v2/clob/orders/cancel-all', proof);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ success: true, cancelled: [] });
      expect((await get(h, `/v2/clob/orders/${placedAfter.orderId}`)).json().order.status).toBe('open');

      // A fresh proof (another second) is another authorisation.
      const next = ts + 1;
      const fresh = await post(h, '/v2/clob/orders/cancel-all', {
        ...proof,
        timestamp: next,
        signature: b64(signText(maker, cancelAllText(marketId, next))),
      });
      expect(fresh.json()).toEqual({ success: true, cancelled: [placedAfter.orderId] });
    },
    60_000,
  );
});
