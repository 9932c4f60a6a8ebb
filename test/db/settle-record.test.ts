/**
 * The keeper's group record (`recordGroup`) and the confirmation's settle UPDATE with its locks
 * (`settleLockedGroupFills`), issue 31's fifteenth pass: on both databases they write the rows the
 * statements one by one wrote, and a group with a fill taken meanwhile moves no fill; on PostgreSQL
 * each is one statement (it was four, then two), and its locks are taken in id order: while it
 * waits for the lowest fill, a higher one it names is still free.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { fillsByIds, insertFills } from '../../db/repositories/clob-fills.repository.js';
import { fillsOfBatch, findBatch, type NewBatch } from '../../db/repositories/clob-settlement.repository.js';
import { recordGroup } from '../../db/repositories/clob-settle-record.repository.js';
import { settleLockedGroupFills } from '../../db/repositories/clob-settle-group.repository.js';
import { findOutbound, type NewOutbound } from '../../db/repositories/outbound-transactions.repository.js';
import { lockFills, lockOrder } from '../../db/row-locks.js';
import type { Database } from '../../db/schema.js';
import { DIALECTS, PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';
import { counting } from '../helpers/statement-capture.js';
import { FILL_ROW_TIME, fillRow } from '../helpers/fill-rows.js';

const NOW = FILL_ROW_TIME;
let seqs = 0;
const fills = (n: number) => Array.from({ length: n }, () => fillRow(randomUUID(), ++seqs));

/** Counts the statements a Kysely instance compiles (begin and commit are not statements of it). */

const outbound = (id: string, batchId: string): NewOutbound => ({
  id,
  idempotencyKey: `c-settle-${batchId}`,
  purpose: 'clob.settle',
  params: JSON.stringify({ batchId, marketId: 'm1' }),
  now: NOW,
  built: { signature: `sig-${batchId}`, rawTx: 'AQID', blockhash: 'hash', lastValidBlockHeight: 42 },
});

function group(fillIds: string[][]): { batches: NewBatch[]; outbounds: NewOutbound[] } {
  const batches = fillIds.map((ids) => ({ id: randomUUID(), marketId: 'm1', outboundId: randomUUID(), fillIds: ids, now: NOW }));
  return { batches, outbounds: batches.map((b) => outbound(b.outboundId, b.id)) };
}

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`a keeper group's record on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('records batches, places, moved fills and outbound rows (one statement on PostgreSQL)', async () => {
      const rows = fills(5);
      await insertFills(handle.db, rows);
      // Batch order is not id order.
      const { batches, outbounds } = group([
        [rows[3]!.id, rows[0]!.id, rows[4]!.id],
        [rows[2]!.id, rows[1]!.id],
      ]);
      const { db, count } = counting(handle.db);
      const moved = await db.transaction().execute((trx) => recordGroup(trx, batches, outbounds, NOW));
      expect(moved).toBe(5);
      expect(count()).toBe(dialect.name === 'postgres' ? 1 : 4);
      for (const b of batches) {
        const batch = await findBatch(handle.db, b.id);
        expect([batch?.market_id, batch?.outbound_id, batch?.status, Number(batch?.fill_count)]).toEqual([
          'm1',
          b.outboundId,
          'pending',
          b.fillIds.length,
        ]);
        const inFlight = await fillsOfBatch(handle.db, b.id);
        expect(inFlight.map((f) => [f.id, f.status, f.batch_id, f.updated_at])).toEqual(b.fillIds.map((id) => [id, 'settling', b.id, NOW]));
      }
      const row = await findOutbound(handle.db, outbounds[1]!.id);
      expect(row).toMatchObject({
        idempotency_key: outbounds[1]!.idempotencyKey,
        purpose: 'clob.settle',
        params: outbounds[1]!.params,
        status: 'sent',
        attempts: 1,
        signature: `sig-${batches[1]!.id}`,
        raw_tx: 'AQID',
        blockhash: 'hash',
        created_at: NOW,
        updated_at: NOW,
      });
      expect(BigInt(row!.last_valid_block_height!)).toBe(42n);
    });

    it('moves fewer than the group when a fill was taken; the rolled-back record leaves nothing', async () => {
      const rows = fills(3);
      await insertFills(handle.db, [...rows.slice(0, 2), { ...rows[2]!, status: 'settling' as const }]);
      const { batches, outbounds } = group([rows.map((r) => r.id)]);
      const taken = new Error('taken');
      await expect(
        handle.db.transaction().execute(async (trx) => {
          if ((await recordGroup(trx, batches, outbounds, NOW)) !== 3) throw taken;
        }),
      ).rejects.toBe(taken);
      expect(await findBatch(handle.db, batches[0]!.id)).toBeUndefined();
      expect(await findOutbound(handle.db, outbounds[0]!.id)).toBeUndefined();
      expect(
        (
          await fillsByIds(
            handle.db,
            rows.slice(0, 2).map((r) => r.id),
          )
        ).map((f) => [f.status, f.batch_id]),
      ).toEqual([
        ['matched', null],
        ['matched', null],
      ]);
    });

    it('settles the landed fills with their locks in one statement on PostgreSQL (was two); a fill left for later is locked first', async () => {
      const rows = fills(4);
      await insertFills(handle.db, rows);
      const { batches, outbounds } = group([rows.map((r) => r.id)]);
      await handle.db.transaction().execute((trx) => recordGroup(trx, batches, outbounds, NOW));
      const { db, count } = counting(handle.db);
      const batchId = batches[0]!.id;
      const landed = [{ batchId, settleTx: 'sig', fillIds: [rows[2]!.id, rows[0]!.id] }];
      const settled = await db.transaction().execute((trx) => settleLockedGroupFills(trx, landed, NOW, new Map(), landed[0]!.fillIds));
      expect(count()).toBe(1);
      expect(lockOrder(settled.map((r) => r.id))).toEqual(lockOrder([rows[0]!.id, rows[2]!.id]));
      expect(settled.every((r) => r.status === 'settled' && r.settle_tx === 'sig' && r.settled_at === NOW)).toBe(true);
      // A fill the transaction writes later (released: no receipt) is locked by lockFills first, as before.
      const more = [{ batchId, settleTx: 'sig', fillIds: [rows[1]!.id] }];
      await db.transaction().execute((trx) => settleLockedGroupFills(trx, more, NOW, new Map(), [rows[1]!.id, rows[3]!.id]));
      expect(count()).toBe(dialect.name === 'postgres' ? 3 : 2);
    });
  });
}

/** Resolves once the backend `pid` waits for a lock (pg_stat_activity). */
async function waitsForLock(db: Kysely<Database>, pid: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where pid = ${pid} and wait_event_type = 'Lock'`.execute(db);
    if (rows[0]!.n === 1) return;
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

describe.skipIf(!PG_AVAILABLE)('the one-statement writes lock fills in id order on postgres', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await postgresDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  type Trx = Parameters<typeof recordGroup>[0];
  /** Each writer names the fills highest first; `prepare` puts them where it writes them (a batch in flight, for the settle). */
  const writers = [
    {
      name: 'recordGroup',
      prepare: async () => '',
      write: async (trx: Trx, ids: string[]) => {
        const { batches, outbounds } = group([ids]);
        return recordGroup(trx, batches, outbounds, NOW);
      },
    },
    {
      name: 'settleLockedGroupFills',
      prepare: async (ids: string[]) => {
        const { batches, outbounds } = group([ids]);
        await handle.db.transaction().execute((trx) => recordGroup(trx, batches, outbounds, NOW));
        return batches[0]!.id;
      },
      write: async (trx: Trx, ids: string[], batchId: string) =>
        (await settleLockedGroupFills(trx, [{ batchId, settleTx: 'sig', fillIds: ids }], NOW, new Map(), ids)).length,
    },
  ];
  for (const { name, prepare, write } of writers) {
    it(`${name}: while it waits for the lowest fill, the highest it names is not locked`, async () => {
      const { db } = handle;
      const rows = fills(3);
      await insertFills(db, rows);
      const [low, mid, high] = lockOrder(rows.map((r) => r.id)) as [string, string, string];
      const batchId = await prepare([high, mid, low]);
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let held!: () => void;
      const holding = new Promise<void>((r) => (held = r));
      const holder = db.transaction().execute(async (trx) => {
        await lockFills(trx, [low]);
        held();
        await released;
      });
      await holding;
      let pidOf!: (pid: number) => void;
      const pid = new Promise<number>((r) => (pidOf = r));
      const writer = db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        pidOf(rows[0]!.pid);
        return write(trx, [high, mid, low], batchId);
      });
      await waitsForLock(db, await pid);
      // The highest fill is free: a NOWAIT lock of it succeeds (it would fail had the writer locked it first).
      const probe = await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select id from clob_fills where id = ${high} for no key update nowait`.execute(trx);
        return rows.length;
      });
      release();
      await holder;
      expect(await writer).toBe(3); // it wrote every fill once the lowest was free
      expect(probe).toBe(1);
    });
  }
});
