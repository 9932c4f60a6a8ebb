/**
 * What the planning and candle requests after fills cost the matcher's process per batch, by
 * gathering window (family-c.feature.ts, FILLED_GATHER_MS): matcher batches with fills arrive
 * every `interval` ms (as the clob-batch bench's single orders commit: one batch every 40–90 ms),
 * each adds its market to the same Coalescer, and each window sends what family-c.feature.ts
 * sends: the market's plan note (a Redis SET) and its `clob.settle.market` job, then the
 * `clob.candles.apply` job, both deduplicated, on real Redis through the project's JobQueues.
 * Prints windows sent and CPU µs per batch (process.cpuUsage, every thread), windows alternated.
 *
 *   npx tsx --conditions=pmx-source bench/fill-requests-cost.ts [intervals=40,80] [windows=10,100] [seconds=4] [rounds=3]
 */
import { Redis } from 'ioredis';
import { JobQueues } from '../jobs/queues.js';
import { Coalescer } from '../src/infra/coalescer.js';
import { PlanRequests } from '../src/services/family-c/settlement/plan-requests.js';
import { uniquePrefix, TEST_REDIS_URL } from '../test/helpers/redis.js';

const [intervals = '40,80', windows = '10,100', seconds = '4', rounds = '3'] = process.argv.slice(2);
const prefix = uniquePrefix('fill-requests');
const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
const queues = new JobQueues(redis, prefix);
const plans = new PlanRequests(redis, prefix);
const marketId = '0193a0b2-0000-7c1e-9a4b-1234567890ab';

async function run(intervalMs: number, windowMs: number): Promise<{ windows: number; batches: number; cpuUs: number }> {
  let sent = 0;
  const inFlight: Array<Promise<unknown>> = [];
  // As family-c.feature.ts: each window asks for every market's planning, then the candles.
  const filled = new Coalescer((ids) => {
    sent++;
    for (const m of ids)
      inFlight.push(
        plans.request(m, (id) => queues.enqueue('clob.settle.market', { marketId: id }, { deduplication: { id: `clob-settle-${id}` } })),
      );
    inFlight.push(queues.enqueue('clob.candles.apply', { reason: 'fills' }, { deduplication: { id: 'clob-candles' } }));
  }, windowMs);
  let batches = 0;
  const start = process.cpuUsage();
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      batches++;
      filled.add(marketId);
    }, intervalMs);
    setTimeout(() => (clearInterval(timer), done()), Number(seconds) * 1000);
  });
  filled.drain();
  await Promise.all(inFlight);
  const used = process.cpuUsage(start);
  return { windows: sent, batches, cpuUs: used.user + used.system };
}

try {
  await run(40, 10); // warm-up: scripts loaded, code compiled
  for (const interval of intervals.split(',').map(Number)) {
    for (let round = 0; round < Number(rounds); round++) {
      const sides = windows.split(',').map(Number);
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const line: string[] = [];
      for (const window of order) {
        const r = await run(interval, window);
        line.push(`window ${window} ms: ${r.windows} windows for ${r.batches} batches, ${Math.round(r.cpuUs / r.batches)} µs per batch`);
      }
      console.log(`batch every ${interval} ms, round ${round + 1}: ${line.join('; ')}`);
    }
  }
} finally {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await Promise.all([...queues.queues.values()].map((q) => q.close()));
  redis.disconnect();
}
