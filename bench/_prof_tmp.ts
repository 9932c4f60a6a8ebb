import { OrderBook } from '/work/main/src/domain/orderbook/index.js';
function rng(seed: number) { return () => { seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
const random = rng(12); const N = 1_000_000;
const stream = Array.from({ length: N }, (_, i) => { const buy = random() < 0.5; const offset = Math.floor(random() * 200) - 68; return { id: `o${i}`, buy, price: buy ? 5000 - offset : 5001 + offset, size: 1 + Math.floor(random() * 100) }; });
const owners = Array.from({ length: 1000 }, (_, i) => `u${i}`);
for (let r = 0; r < 3; r++) {
  const book = new OrderBook({ marketId: 'bench' }); let n = 0;
  const t0 = performance.now();
  for (const o of stream) book.place({ id: o.id, owner: owners[n++ % 1000]!, side: o.buy ? 'buy' : 'sell', outcome: 'yes', priceBps: o.price, quantity: BigInt(o.size) * 1_000_000n, expiry: 0 });
  console.log(Math.round(N / (performance.now() - t0) * 1000), 'orders/s');
}
