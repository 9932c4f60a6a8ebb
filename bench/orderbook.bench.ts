/**
 * The Family C matching engine against two open-source JavaScript books, `nodejs-order-book`
 * and `hft-limit-order-book` (its predecessor), on the same order stream in the same run:
 *
 * - place: 1,000,000 limit orders (one outcome, prices around 50%, about 29 % of them crossing
 *   the opposite side on arrival). Orders/s for each; ratio = ours ÷ the faster of them
 *   (target ≥ 3).
 * - cancel deep in a level: levels of 1,200 resting orders, cancelling orders from the back
 *   half of each level (where a queue backed by an array must shift). Cancels/s; ratio = ours ÷
 *   the faster of them (target ≥ 100).
 *
 * Our engine returns full results (fills with money, level deltas, commitments); theirs return
 * their own result objects. Every engine gets the stream's quantities in its own type, made with
 * the stream before any timing (numbers for theirs, bigint raw units for ours); each adapter
 * builds its request object per order inside the timing. Run standalone: `npx tsx bench/orderbook.bench.ts [orders]`.
 */
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { OrderBook as HftBook, Side as HftSide } from 'hft-limit-order-book';
import { OrderBook as NobBook, Side as NobSide } from 'nodejs-order-book';
import { OrderBook } from '../src/domain/orderbook/index.js';
import { makeStream, rng, type StreamOrder } from './support/order-stream.js';

interface Engine {
  name: string;
  place(order: StreamOrder): boolean;
  cancel(id: string): void;
}

function ours(): Engine {
  const book = new OrderBook({ marketId: 'bench' });
  const owners = Array.from({ length: 1000 }, (_, i) => `u${i}`);
  let n = 0;
  return {
    name: 'pmx engine',
    place: (o) =>
      book.place({
        id: o.id,
        owner: owners[n++ % owners.length]!,
        side: o.buy ? 'buy' : 'sell',
        outcome: 'yes',
        priceBps: o.price,
        quantity: o.quantity,
        expiry: 0,
      }).fills.length > 0,
    cancel: (id) => void book.cancel(id),
  };
}

function nob(): Engine {
  const book = new NobBook();
  return {
    name: 'nodejs-order-book',
    place: (o) => book.limit({ id: o.id, side: o.buy ? NobSide.BUY : NobSide.SELL, size: o.size, price: o.price }).done.length > 0,
    cancel: (id) => void book.cancel(id),
  };
}

function hft(): Engine {
  const book = new HftBook();
  return {
    name: 'hft-limit-order-book',
    place: (o) => book.limit({ id: o.id, side: o.buy ? HftSide.BUY : HftSide.SELL, size: o.size, price: o.price }).done.length > 0,
    cancel: (id) => void book.cancel(id),
  };
}

const rate = (count: number, ms: number) => (count / ms) * 1000;

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/**
 * Before each timed placement run: a full collection, so no engine's run pays for the million-order
 * book the previous run left behind (each still pays for all the garbage it makes itself). Not
 * before the cancel runs, which come first, on a small heap: our 20,000 cancels take 20–70 ms, and
 * after a forced collection V8 deoptimized and re-optimized our cancel path (the index lookup,
 * unrest, levelOf, toResting: `--trace-opt`) inside that short window, making it 3–4× slower;
 * the baselines' cancels take seconds and are bound by array shifts.
 */
function settleHeap(): void {
  collect();
}
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

function timePlace(engine: Engine, stream: StreamOrder[]): { perSecond: number; crossing: number } {
  let crossing = 0;
  settleHeap();
  const start = performance.now();
  for (const order of stream) if (engine.place(order)) crossing++;
  return { perSecond: rate(stream.length, performance.now() - start), crossing: crossing / stream.length };
}

/** Levels of `perLevel` resting bids; then cancels of orders in the back half of every level. */
function timeDeepCancel(engine: Engine, levels: number, perLevel: number, cancels: number): number {
  const random = rng(7);
  for (let l = 0; l < levels; l++) {
    for (let k = 0; k < perLevel; k++) engine.place({ id: `c${l}:${k}`, buy: true, price: 4000 - l, size: 1, quantity: 1_000_000n });
  }
  const ids: string[] = [];
  const picked = new Set<string>();
  while (ids.length < cancels) {
    const id = `c${Math.floor(random() * levels)}:${perLevel / 2 + Math.floor(random() * (perLevel / 2))}`;
    if (!picked.has(id)) {
      picked.add(id);
      ids.push(id);
    }
  }
  if (process.env.BENCH_CANCEL_GC === '1') settleHeap();
  const start = performance.now();
  for (const id of ids) engine.cancel(id);
  return rate(ids.length, performance.now() - start);
}

export interface OrderbookBenchResult {
  place: Record<string, number>;
  cancel: Record<string, number>;
  crossing: number;
  placeRatio: number;
  cancelRatio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(count = 1_000_000, rounds = 5): Promise<OrderbookBenchResult> {
  const stream = makeStream(count);
  const makers = [ours, nob, hft];
  const names = makers.map((make) => make().name);
  // Warm-up so the JIT has compiled every engine's paths before timing.
  for (const make of makers) {
    timePlace(make(), stream.slice(0, 50_000));
    timeDeepCancel(make(), 10, 1_200, 2_000);
  }
  // The machine is shared: engines alternate within each round and the median round counts.
  // Cancels run first, while the heap is small, so no engine pays for another's garbage.
  const placeRounds = names.map(() => [] as number[]);
  const cancelRounds = names.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    makers.forEach((make, i) => cancelRounds[i]!.push(timeDeepCancel(make(), 50, 1_200, 20_000)));
  }
  let crossing = 0;
  for (let round = 0; round < rounds; round++) {
    makers.forEach((make, i) => {
      const result = timePlace(make(), stream);
      placeRounds[i]!.push(result.perSecond);
      if (i === 0) crossing = result.crossing;
    });
  }
  const place: Record<string, number> = {};
  const cancel: Record<string, number> = {};
  names.forEach((name, i) => {
    place[name] = median(placeRounds[i]!);
    cancel[name] = median(cancelRounds[i]!);
    console.log(
      `orderbook.place ${name}: ${fmt(place[name])} orders/s (median of ${rounds}; ${count.toLocaleString('en-US')} limit orders, ${(crossing * 100).toFixed(1)} % crossing)`,
    );
    console.log(`orderbook.cancel ${name}: ${fmt(cancel[name])} cancels/s (median of ${rounds}; 1,200 orders per level, back half)`);
  });
  // The ratio is taken within each round (ours ÷ the faster baseline of that round, seconds
  // apart) and the median round's counts: this machine's speed drifts by ±20 % over a minute,
  // which a ratio of medians taken from different moments carries into the result.
  const ratios = (rates: number[][]) => median(rates[0]!.map((ourRate, r) => ourRate / Math.max(rates[1]![r]!, rates[2]![r]!)));
  const result = { place, cancel, crossing, placeRatio: ratios(placeRounds), cancelRatio: ratios(cancelRounds) };
  for (const [i, name] of names.entries())
    console.log(`  ${name} by round: place ${placeRounds[i]!.map(fmt).join(', ')}; cancel ${cancelRounds[i]!.map(fmt).join(', ')}`);
  const perRound = placeRounds[0]!.map((ourRate, r) => (ourRate / Math.max(placeRounds[1]![r]!, placeRounds[2]![r]!)).toFixed(2));
  console.log(
    `orderbook: place ${result.placeRatio.toFixed(2)}× the faster baseline (the median of the rounds' ratios ${perRound.join(', ')}; target ≥ 3); ` +
      `deep cancel ${result.cancelRatio.toFixed(0)}× (target ≥ 100)`,
  );
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run(process.argv[2] ? Number(process.argv[2]) : undefined);
}
