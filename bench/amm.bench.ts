/**
 * Quote throughput of the pure Family B math (quoteBuy + quoteSell on an AMM market), printed
 * against a baseline measured in the same run: a plain bigint multiply/divide loop of the same
 * count. The ratio (baseline ops/s ÷ quote ops/s) says how many bigint mul/divs one quote costs,
 * which stays comparable across machines. Run standalone: `npx tsx bench/amm.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { type MarketState, openMarket, quoteBuy, quoteSell } from '@pmx/programs';

export interface AmmBenchResult {
  name: string;
  quotesPerSecond: number;
  baselineOpsPerSecond: number;
  /** How many baseline operations one quote costs. */
  ratio: number;
}

function timeIt(count: number, body: (i: number) => void): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) body(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return count / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(count = 50_000): Promise<AmmBenchResult> {
  const base = openMarket(1_000_000_000n, 200n);
  // A market with holders on both sides, so sells are quotable too.
  const market: MarketState = quoteBuy(quoteBuy(base, 'YES', 100_000_000n).next, 'NO', 60_000_000n).next;
  let sink = 0n;
  const baseline = (i: number) => {
    sink += (market.yesReserve * BigInt(i + 1_000_000)) / (market.noReserve + BigInt(i));
  };
  const quote = (i: number) => {
    const amount = 1_000_000n + BigInt(i % 1000) * 10_000n;
    const q = i % 2 === 0 ? quoteBuy(market, i % 4 === 0 ? 'YES' : 'NO', amount) : quoteSell(market, 'YES', amount);
    sink += q.outputAmount;
  };
  // Warm both loops up first so the JIT has compiled them before anything is timed.
  timeIt(count / 5, baseline);
  timeIt(count / 5, quote);
  // Alternate five rounds and keep the medians: the machine is shared, single rounds are noisy.
  const baselines: number[] = [];
  const quotes: number[] = [];
  for (let round = 0; round < 5; round++) {
    baselines.push(timeIt(count / 5, baseline));
    quotes.push(timeIt(count / 5, quote));
  }
  const baselineOpsPerSecond = median(baselines);
  const quotesPerSecond = median(quotes);
  if (sink < 0n) throw new Error('unreachable: keeps the loops from being optimised away');
  const result = { name: 'amm.quote', quotesPerSecond, baselineOpsPerSecond, ratio: baselineOpsPerSecond / quotesPerSecond };
  console.log(
    `amm.quote: ${Math.round(quotesPerSecond).toLocaleString('en-US')} quotes/s; baseline bigint mul/div ` +
      `${Math.round(baselineOpsPerSecond).toLocaleString('en-US')} ops/s; one quote ≈ ${result.ratio.toFixed(1)} baseline ops`,
  );
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
