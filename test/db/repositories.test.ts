import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { migrations } from '../../db/migrations/index.js';
import {
  deleteNodesSilentSince,
  findNode,
  listNodes,
  newestPipelineBeatAt,
  recordBeat,
  recordPipelineBeat,
} from '../../db/repositories/daemon-nodes.repository.js';
import { DIALECTS, tempDir } from '../helpers/databases.js';

const MAX_I64 = 2n ** 63n - 1n;
const node = (nodeId: string) => ({
  nodeId,
  roles: ['api', 'worker'],
  hostname: 'host-a',
  pid: 4242,
  version: '1.2.3',
  startedAt: '2024-01-01T00:00:00.000Z',
});

describe('migrator on a fresh SQLite file', () => {
  it('applies every migration once, then nothing', async () => {
    const handle = openSqlite(path.join(tempDir(), 'fresh.db'));
    try {
      expect(await migrateToLatest(handle.db)).toEqual(Object.keys(migrations).sort());
      expect(await migrateToLatest(handle.db)).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`daemon-nodes repository on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('has applied the migrations and a second run applies nothing', async () => {
      expect(handle.dialect).toBe(dialect.name);
      const applied = await handle.db
        .selectFrom(sql<{ name: string }>`kysely_migration`.as('m'))
        .select('name')
        .orderBy('name')
        .execute();
      expect(applied.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
      expect(await migrateToLatest(handle.db)).toEqual([]);
      // The tables answer queries (not Kysely's introspection: on PostgreSQL it reads every
      // schema on the server, and fails when a sibling test drops its schema meanwhile).
      for (const table of ['daemon_nodes', 'markets'] as const)
        expect(
          await handle.db
            .selectFrom(table)
            .select(sql<number>`1`.as('one'))
            .limit(1)
            .execute(),
        ).toEqual([]);
    });

    it('records beats, finds nodes and reports the newest beat', async () => {
      expect(await findNode(handle.db, 'missing')).toBeUndefined();
      expect(await newestPipelineBeatAt(handle.db)).toBeUndefined();

      await recordBeat(handle.db, node('n1'), new Date('2024-05-01T10:00:00.000Z'));
      await recordBeat(handle.db, node('n1'), new Date('2024-05-01T10:00:05.000Z'), { p99Us: 12_345, meanUs: 210 });
      await recordBeat(handle.db, node('n2'), new Date('2024-05-01T10:00:03.000Z'));
      // A node's own beats are no proof that the job pipeline works: /ready waits for a job's beat.
      expect(await newestPipelineBeatAt(handle.db)).toBeUndefined();

      const n1 = await findNode(handle.db, 'n1');
      expect(n1).toEqual({
        ...node('n1'),
        lastBeatAt: '2024-05-01T10:00:05.000Z',
        beats: 2n,
        pipelineBeatAt: null,
        loopLagP99Us: 12_345,
        loopLagMeanUs: 210,
      });
      expect(typeof n1?.pid).toBe('number');
      expect((await findNode(handle.db, 'n2'))?.beats).toBe(1n);

      await recordPipelineBeat(handle.db, node('n2'), new Date('2024-05-01T10:00:04.000Z'));
      await recordPipelineBeat(handle.db, node('n3'), new Date('2024-05-01T10:00:02.000Z')); // before its own first beat
      expect(await newestPipelineBeatAt(handle.db)).toBe('2024-05-01T10:00:04.000Z');
      expect(await findNode(handle.db, 'n2')).toMatchObject({ lastBeatAt: '2024-05-01T10:00:03.000Z', beats: 1n });
      expect(await findNode(handle.db, 'n3')).toMatchObject({ lastBeatAt: '2024-05-01T10:00:02.000Z', beats: 0n });
      expect((await listNodes(handle.db)).map((n) => n.nodeId)).toEqual(['n1', 'n2', 'n3']);

      expect(await deleteNodesSilentSince(handle.db, new Date('2024-05-01T10:00:03.000Z'))).toBe(1);
      expect((await listNodes(handle.db)).map((n) => n.nodeId)).toEqual(['n1', 'n2']);
    });

    it('round-trips bigint values beyond 2^53 exactly', async () => {
      await recordBeat(handle.db, node('big'), new Date('2024-05-01T09:00:00.000Z'));
      await handle.db
        .updateTable('daemon_nodes')
        .set({ beats: MAX_I64 - 1n })
        .where('node_id', '=', 'big')
        .execute();
      await recordBeat(handle.db, node('big'), new Date('2024-05-01T09:00:01.000Z'));
      const row = await handle.db.selectFrom('daemon_nodes').select('beats').where('node_id', '=', 'big').executeTakeFirstOrThrow();
      expect(typeof row.beats).toBe('bigint');
      expect(row.beats).toBe(MAX_I64);
      expect((await findNode(handle.db, 'big'))?.beats).toBe(MAX_I64);

      const now = new Date().toISOString();
      const chainId = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a double
      await handle.db
        .insertInto('markets')
        .values({
          id: `m-${dialect.name}`,
          slug: `big-${dialect.name}`,
          kind: 'amm',
          chain_market_id: chainId,
          name: 'Big id',
          description: '',
          category: '',
          tags: '[]',
          image_urls: '{}',
          status: 'open',
          outcome: null,
          creator: null,
          yes_ticker: 'YES',
          no_ticker: 'NO',
          yes_mint: null,
          no_mint: null,
          end_date: null,
          resolved_at: null,
          published: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const market = await handle.db
        .selectFrom('markets')
        .select('chain_market_id')
        .where('chain_market_id', '=', chainId)
        .executeTakeFirstOrThrow();
      expect(market.chain_market_id).toBe(chainId);
    });
  });
}
