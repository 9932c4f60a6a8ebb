// The console's samples: a process's Prometheus counters become one row per node and minute (the
// minute's difference), nodes are summed on read, and rows past the retention are pruned — on
// both databases. The latency percentile is the upper bound of the bucket it falls in.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { listSampleMinutes } from '../../db/repositories/console-samples.repository.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { ConsoleSampler, quantileMs } from '../../src/services/console/console-sampler.js';
import { DIALECTS } from '../helpers/databases.js';

describe('quantileMs', () => {
  it('answers the upper bound of the bucket holding the quantile of what was observed between two readings', () => {
    // Buckets 0.5 s, 1 s, 2 s, +Inf. Before: 10 observations ≤ 0.5 s. After: 4 more, 1 ≤ 0.5, 2 in (0.5, 1], 1 in (1, 2].
    const before: Array<[number, number]> = [
      [0.5, 10],
      [1, 10],
      [2, 10],
      [Infinity, 10],
    ];
    const after: Array<[number, number]> = [
      [0.5, 11],
      [1, 13],
      [2, 14],
      [Infinity, 14],
    ];
    expect(quantileMs(before, after, 0.5)).toBe(1000); // the 2nd of 4 is in (0.5, 1]
    expect(quantileMs(before, after, 0.99)).toBe(2000); // the 4th is in (1, 2]
    expect(quantileMs(after, after, 0.5)).toBeNull(); // nothing observed
    expect(
      quantileMs(
        [
          [1, 0],
          [Infinity, 0],
        ],
        [
          [1, 0],
          [Infinity, 3],
        ],
        0.5,
      ),
    ).toBe(1000); // past the last bound: the last finite one
  });
});

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`console samples on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => db?.close());

    it('writes each minute as the difference of two readings, per node, summed on read, and prunes old rows', async () => {
      const minute = (m: number) => Date.UTC(2026, 10, 26, 10, m, 5);
      const nodes = ['api-1', 'api-2'].map((id) => {
        const metrics = createMetrics();
        return {
          id,
          metrics,
          orders: metrics.clob.orders,
          latency: metrics.clob.settleLatency,
          sampler: new ConsoleSampler(db.db, metrics.registry, id, pino({ level: 'silent' }), 3_600_000),
        };
      });
      for (const n of nodes) {
        n.metrics.httpDuration.observe({ method: 'GET', route: '/x', status: '200' }, 0.01);
        await n.sampler.sample(minute(0)); // the first reading: minute 09:59 holds what was counted before it
      }
      const [a, b] = nodes;
      for (let i = 0; i < 3; i++) a!.metrics.httpDuration.observe({ method: 'GET', route: '/x', status: '200' }, 0.01);
      a!.metrics.httpDuration.observe({ method: 'GET', route: '/x', status: '404' }, 0.01);
      b!.metrics.httpDuration.observe({ method: 'POST', route: '/y', status: '503' }, 0.01);
      a!.orders.inc({ result: 'placed', reason: '' }, 5);
      a!.orders.inc({ result: 'rejected', reason: 'balance' }, 2); // not placed: not counted
      b!.latency.observe(0.4); // bucket ≤ 0.5 s
      b!.latency.observe(1.5); // bucket ≤ 2 s
      for (const n of nodes) await n.sampler.sample(minute(1)); // writes 10:00

      const rows = await listSampleMinutes(db.db, new Date(Date.UTC(2026, 10, 26, 10, 0)).toISOString());
      expect(rows).toEqual([
        {
          minute: '2026-11-26T10:00:00.000Z',
          http_requests: 5,
          http_4xx: 1,
          http_5xx: 1,
          orders: 5,
          fills_matched: 0,
          fills_settled: 2,
          settle_p50_ms: 500,
          settle_p99_ms: 2000,
          queue_depth: 0,
        },
      ]);
      // Two hours later the first prune of a fresh sampler drops what is past the retention (1 hour here).
      const late = new ConsoleSampler(db.db, a!.metrics.registry, 'api-3', pino({ level: 'silent' }), 3_600_000);
      await late.sample(minute(0) + 2 * 3_600_000);
      const left = await listSampleMinutes(db.db, '2000-01-01T00:00:00.000Z');
      expect(left.map((r) => r.minute)).toEqual(['2026-11-26T11:59:00.000Z']);
    });
  });
