/**
 * The HTTP latency histogram's own tallies print exactly what prom-client's Histogram prints for
 * the same observations (bucket edges, `+Inf`, sum, count, label order), so scrapes, dashboards
 * and the console's sampler see no difference.
 */
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TalliedHistogram } from '../../src/infra/tallied-histogram.js';

const options = {
  name: 'pmx_test_duration_seconds',
  help: 'test latency',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
};

const observations: Array<[{ method: string; route: string; status: string }, number]> = [
  [{ method: 'GET', route: '/health', status: '200' }, 0.0004],
  [{ method: 'GET', route: '/health', status: '200' }, 0.001], // on a bucket's edge: counted in it
  [{ method: 'GET', route: '/health', status: '200' }, 0.0011],
  [{ method: 'POST', route: '/v2/markets/:id/buy', status: '400' }, 0.03],
  [{ method: 'GET', route: 'unmatched', status: '404' }, 12], // above every bound: only +Inf
  [{ method: 'GET', route: '/health', status: '200' }, 0],
];

function both() {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({ ...options, labelNames: [...options.labelNames], registers: [theirs] });
  const tallied = new TalliedHistogram({ ...options, registers: [ours] });
  for (const [labels, value] of observations) {
    reference.observe(labels, value);
    tallied.observe(labels, value);
  }
  return { theirs, ours, reference, tallied };
}

describe('TalliedHistogram', () => {
  it('prints what prom-client prints', async () => {
    const { theirs, ours } = both();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toMatch(/pmx_test_duration_seconds_bucket\{le="0.001",method="GET",route="\/health",status="200"\} 3/);
    expect(text).toMatch(/pmx_test_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1/);
  });

  it('answers get() as prom-client does (the console sampler reads it)', async () => {
    const { reference, tallied } = both();
    const strip = (values: Array<Record<string, unknown>>) =>
      values.map(({ labels, value, metricName }) => ({ labels, value, metricName }));
    const [a, b] = [await reference.get(), await tallied.get()];
    expect(strip(b.values as never)).toEqual(strip(a.values as never));
    expect({ ...b, values: [], collect: undefined }).toEqual({ ...a, values: [], collect: undefined });
  });

  it('refuses a value that is not a number, and reset() empties it', async () => {
    const { ours, tallied } = both();
    expect(() => tallied.observe({ method: 'GET', route: '/x', status: '200' }, Number.NaN)).toThrow(TypeError);
    tallied.reset();
    expect(await ours.metrics()).not.toMatch(/_count/);
  });
});
