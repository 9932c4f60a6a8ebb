// The world of the unhonoured-payments tests: one Family A harness per file (whose present grace
// is long enough that held payments stay held), and the requests those tests repeat.
import { afterAll, beforeAll, expect } from 'vitest';
import { findOutboundByKey } from '../../db/repositories/outbound-transactions.repository.js';
import { awaitOutbound } from '../../src/services/outbound/outbound-wait.js';
import { createHarness, xPayment, type createMarket, type Harness } from './family-a.harness.js';

export type Market = Awaited<ReturnType<typeof createMarket>>;
export const USDC0 = 10_000_000_000n; // what fundedUser mints

/** Registers the harness's hooks for the calling file (vitest shares modules between files). */
export function useUnhonouredWorld() {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await createHarness({ env: { FAMILY_A_PRESENT_GRACE_SEC: '600' } });
    await awaitOutbound(harness.ctx.db, (await findOutboundByKey(harness.ctx.db, 'a-platform-accounts'))!.id, 10_000);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const world = {
    get h(): Harness {
      if (!harness) throw new Error('the harness is made in beforeAll');
      return harness;
    },
    post: (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      world.h.t.app.inject({ method: 'POST', url, payload, headers }),
    lookup: async (sig: string) => (await world.h.t.app.inject({ method: 'GET', url: `/v2/payments/${sig}` })).json().data,

    async quote(m: Market, path: 'buy' | 'sell', payload: Record<string, unknown>) {
      const res = await world.post(`/v2/markets/${m.slug}/trade/${path}`, payload);
      expect(res.statusCode, res.body).toBe(402);
      return res.json();
    },

    buyHeader(q: { payment: { payTo: string }; quote: { issuedAt: string; amount: number } }, sig: string, payer: string) {
      return {
        'x-payment': xPayment({
          txHash: sig,
          amount: q.quote.amount,
          payer,
          payTo: q.payment.payTo,
          asset: world.h.usdcMint,
          quoteIssuedAt: q.quote.issuedAt,
        }),
      };
    },

    /** Waits for every refund of the transaction to finish and answers the lookup. */
    async settled(sig: string) {
      const data = await world.lookup(sig);
      for (const t of data.transfers) {
        if (t.state !== 'refunded') continue;
        const row = await findOutboundByKey(world.h.ctx.db, `a-refund-${sig}-${t.index}`);
        expect((await awaitOutbound(world.h.ctx.db, row!.id, 15_000)).status).toBe('confirmed');
      }
      return world.lookup(sig);
    },
  };
  return world;
}
