/**
 * Every node beats on its own timer with its event-loop delay; a node silent past the threshold
 * shows as gone, and one silent for the retention is forgotten by the next beat; /ready still
 * waits for the heartbeat JOB (a node's own beat proves no worker runs). On SQLite and PostgreSQL.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { findNode, recordBeat } from '../../db/repositories/daemon-nodes.repository.js';
import { Redis } from 'ioredis';
import {
  goneAfterMs,
  NODE_RETENTION_MS,
  nodesForOperators,
  recordHeartbeat,
  startNodeBeat,
} from '../../src/services/daemon-nodes.service.js';
import { createReadinessProbe } from '../../src/services/readiness.service.js';
import { DIALECTS } from '../helpers/databases.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';

const INTERVAL_MS = 50;
const identity = (nodeId: string) => ({ nodeId, roles: ['api'], version: 'test', startedAt: new Date().toISOString() });
const record = (nodeId: string) => ({ ...identity(nodeId), hostname: 'elsewhere', pid: 1 });

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`node beats on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => db?.close());

    it('beats with the event-loop delay of a blocked loop, and forgets long-silent nodes', async () => {
      const now = Date.now();
      await recordBeat(db.db, record('forgotten'), new Date(now - NODE_RETENTION_MS - 60_000));
      await recordBeat(db.db, record('kept-gone'), new Date(now - NODE_RETENTION_MS + 60_000));
      const beat = startNodeBeat({ db: db.db, node: identity('self'), intervalMs: INTERVAL_MS, log: pino({ level: 'silent' }) });
      try {
        await until('the first beat', async () => findNode(db.db, 'self'));
        // The beat forgets the long-silent node after recording itself.
        await until('the silent node forgotten', async () => ((await findNode(db.db, 'forgotten')) ? undefined : true));
        expect(await findNode(db.db, 'kept-gone')).toBeDefined();

        // Block the loop for 150 ms: a later beat reports a p99 delay of at least 100 ms.
        const started = Date.now();
        while (Date.now() - started < 150);
        const lagged = await until('a beat with the delay', async () => {
          const node = await findNode(db.db, 'self');
          return node && (node.loopLagP99Us ?? 0) >= 100_000 ? node : undefined;
        });
        expect(lagged.loopLagMeanUs).toBeGreaterThan(0);
        // Then a quieter interval reports less (the histogram restarts at each beat).
        await until('an idle beat', async () => {
          const node = await findNode(db.db, 'self');
          return node && node.beats > lagged.beats && (node.loopLagP99Us ?? Infinity) < 100_000 ? node : undefined;
        });
      } finally {
        await beat.stop();
      }
    });

    it('shows live nodes first and a node silent past the threshold as gone', async () => {
      const now = Date.parse('2024-06-01T12:00:00.000Z');
      const threshold = goneAfterMs(5_000);
      await recordBeat(db.db, record('live'), new Date(now - threshold + 1_000), { p99Us: 900, meanUs: 100 });
      await recordBeat(db.db, record('silent'), new Date(now - threshold - 1_000));
      const views = (await nodesForOperators(db.db, 5_000, now)).filter((v) => ['live', 'silent'].includes(v.nodeId));
      expect(views.map((v) => [v.nodeId, v.gone, v.secondsSinceBeat])).toEqual([
        ['live', false, (threshold - 1_000) / 1000],
        ['silent', true, (threshold + 1_000) / 1000],
      ]);
      expect(views[0]).toMatchObject({ roles: ['api'], beats: '1', loopLagP99Us: 900, loopLagMeanUs: 100 });
    });

    it("keeps /ready waiting for the heartbeat job, not for the nodes' own beats", async () => {
      const fresh = await open();
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const ready = createReadinessProbe({ db: fresh.db, redis, heartbeatMaxAgeMs: 10_000 });
        await recordBeat(fresh.db, record('api-only'), new Date());
        expect((await ready()).workers).toMatchObject({ ok: false, detail: 'no heartbeat processed yet' });
        await recordHeartbeat(fresh.db, identity('worker'));
        expect((await ready()).workers).toMatchObject({ ok: true });
      } finally {
        redis.disconnect();
        await fresh.close();
      }
    });
  });
