/**
 * The Nodes view of a whole daemon (every role in one process, real Redis, embedded cluster):
 * the process beats on its own timer under its instance id, its matcher takes the new market's
 * lease and epoch, and its own `matcher-<hash>` queue is listed beside the catalog's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matcherQueueName } from '../../jobs/matcher-queue.js';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { createClobMarket, openClobHarness, waitFor, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness({ HEARTBEAT_INTERVAL_MS: '1000', CLOB_MATCHER_LEASE_MS: '4000' });
});
afterAll(async () => h?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const nodes = async (): Promise<Json> => {
  const res = await h.app.inject({ method: 'GET', url: '/v2/admin/nodes', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('the Nodes view of a running daemon', () => {
  it('shows this process with every role, the market its matcher owns and its matcher queue', async () => {
    const market = await createClobMarket(h);
    const data = await waitFor(
      'the market owned by this node, and a second beat with its event-loop delay',
      async () => {
        const d = await nodes();
        const self = (d.nodes as Json[])[0];
        // (This process, busy with the whole stack, may miss Redis's 1 s command timeout: wait for a whole view.)
        return self &&
          d.unavailable.length === 0 &&
          !self.gone &&
          BigInt(self.beats) >= 2n &&
          // Owned: the lease taken and the epoch recorded (the matcher writes the second just after the first).
          self.markets.some((m: Json) => m.marketId === market.id && m.epochNode === self.nodeId)
          ? d
          : undefined;
      },
      15_000,
    );
    const self = data.nodes[0] as Json;
    expect(self.roles).toEqual(expect.arrayContaining(['api', 'worker', 'indexer', 'matcher', 'ledger']));
    expect(self.nodeId).toMatch(new RegExp(`:${process.pid}:[0-9a-f]{8}$`));
    expect(self.loopLagP99Ms).toEqual(expect.any(Number));
    const owned = (self.markets as Json[]).find((m) => m.marketId === market.id)!;
    expect(owned).toMatchObject({ leaseHolder: self.nodeId, epochNode: self.nodeId, unowned: false });
    expect(BigInt(owned.epoch)).toBeGreaterThanOrEqual(1n);
    expect(owned.leaseExpiresInMs).toBeGreaterThan(0);
    expect(owned.leaseExpiresInMs).toBeLessThanOrEqual(4_000);
    const queues = (data.queues as Json[]).map((q) => [q.queue, q.node]);
    expect(queues).toContainEqual([matcherQueueName(self.nodeId), self.nodeId]);
    expect(queues).toContainEqual(['platform', null]);
  }, 30_000);
});
