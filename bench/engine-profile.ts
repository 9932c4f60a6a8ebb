/**
 * Our engine alone on the orderbook bench's stream, for profiling (not a bench: no baseline):
 * orders per wall-clock second and per CPU second (steadier on a shared machine). To see lines
 * in a profile, bundle it first (tsx maps every line of a module to line 1):
 *   npx esbuild bench/engine-profile.ts --bundle --packages=external --platform=node --format=esm --outfile=engine-tmp.mjs
 *   node --cpu-prof --cpu-prof-dir=data/prof engine-tmp.mjs [orders=1000000]
 * (both git-ignored: `*-tmp.mjs` and `data/`).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { OrderBook } from '../src/domain/orderbook/index.js';
import { makeStream } from './support/order-stream.js';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const count = Number(process.argv[2] ?? 1_000_000);
const stream = makeStream(count);
const owners = Array.from({ length: 1000 }, (_, i) => `u${i}`);
for (let round = 0; round < 4; round++) {
  const book = new OrderBook({ marketId: 'bench' });
  let n = 0;
  // As the bench does before each timed run: without it, each round also paid for collecting the
  // previous round's half-million-order book, which made changes to the nodes look 10-20 % better
  // here than in the bench.
  collect();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (const o of stream) {
    book.place({
      id: o.id,
      owner: owners[n++ % owners.length]!,
      side: o.buy ? 'buy' : 'sell',
      outcome: 'yes',
      priceBps: o.price,
      quantity: o.quantity,
      expiry: 0,
    });
  }
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `round ${round}: ${Math.round((count / wallMs) * 1000).toLocaleString('en-US')} orders/s, ${Math.round((count / cpuMs) * 1000).toLocaleString('en-US')} per CPU second, ${book.index.size} resting`,
  );
}
