/**
 * Issue 31's row "first order accepted on a market just created" (goal ≤ 100 ms; it took
 * 1.4–2.4 s while the order waited for a matcher's next lease round). The whole daemon in this
 * process (the default `npm start` shape: every role, SQLite, the embedded cluster); requests
 * through Fastify's inject. For each of `BENCH_NEW_MARKETS` (default 10) markets: the time from
 * the creation's answer to the first resting order's answer; beside it, in the same run, the
 * baseline: the same order on a market the matcher already holds.
 */
import { createClobMarket, depositedTrader, openClobHarness, place, USDC } from '../test/family-c/family-c.harness.js';
import { formatMs, percentile } from './stats.js';

const MARKETS = Number(process.env.BENCH_NEW_MARKETS ?? 10);

export async function run(): Promise<void> {
  const h = await openClobHarness({ LOG_LEVEL: 'silent' });
  try {
    const maker = await depositedTrader(h, 10_000n * USDC);
    let price = 1000;
    const order = (market: string) => ({ market, side: 'buy' as const, outcome: 'yes' as const, priceBps: price++, quantity: USDC });
    const timed = async (fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };

    const warm = await createClobMarket(h);
    await place(h, maker, order(warm.marketPubkey));
    const firstOrders: number[] = [];
    const served: number[] = [];
    for (let i = 0; i < MARKETS; i++) {
      const market = await createClobMarket(h);
      firstOrders.push(await timed(() => place(h, maker, order(market.marketPubkey))));
      served.push(await timed(() => place(h, maker, order(warm.marketPubkey))));
    }
    const p50 = percentile(firstOrders, 50);
    const base = percentile(served, 50);
    console.log(
      `  first order on a market just created: p50 ${formatMs(p50)}, max ${formatMs(Math.max(...firstOrders))} ` +
        `(goal ≤ 100 ms); the same order on a served market: p50 ${formatMs(base)}; ratio ${(p50 / base).toFixed(1)}×`,
    );
  } finally {
    await h.close();
  }
}
