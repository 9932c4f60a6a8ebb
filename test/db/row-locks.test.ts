/**
 * Issue 31: writers of the same rows on PostgreSQL take their locks in one order (db/row-locks.ts).
 * Two transactions writing two fills in opposite orders deadlock without `lockFills` (the control,
 * so the test can fail) and wait for each other with it; the keeper-shaped writers of fills and
 * the token-account passes that meet closed accounts run concurrently to the right final rows.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { insertFills } from '../../db/repositories/clob-fills.repository.js';
import { setCandleState } from '../../db/repositories/clob-candles.repository.js';
import { markFillsApplied } from '../../db/repositories/clob-positions.repository.js';
import { endFills, markRetrying, moveFillsToBatch, releaseFills } from '../../db/repositories/clob-settlement.repository.js';
import { balancesByOwner, writeTokenAccountReads } from '../../db/repositories/token-accounts.repository.js';
import { lockFills, lockOrder } from '../../db/row-locks.js';
import type { Database } from '../../db/schema.js';
import { DIALECTS, PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';
import { FILL_ROW_TIME, fillRow } from '../helpers/fill-rows.js';

const NOW = FILL_ROW_TIME;

let seqs = 0;
const fill = (id: string) => fillRow(id, ++seqs); // (market, seq) is unique

const shuffled = <T>(items: T[]): T[] => [...items].sort(() => Math.random() - 0.5);

/** Resolves once the backend `pid` waits for a lock (pg_stat_activity), so the interleaving below is forced, not hoped for. */
async function waitsForLock(db: Kysely<Database>, pid: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where pid = ${pid} and wait_event_type = 'Lock'`.execute(db);
    if (rows[0]!.n === 1) return;
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

const touch = (trx: Transaction<Database>, id: string, reason: string) =>
  trx.updateTable('clob_fills').set({ failure_reason: reason }).where('id', '=', id).execute();

describe.skipIf(!PG_AVAILABLE)('fill row locks on postgres', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await postgresDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  /**
   * T1 writes A then B; T2 writes B then A, started once T1 holds A. With `locked`, each first
   * locks both (lockFills); T1 waits for T2 to be seen waiting before going on.
   */
  async function opposite(locked: boolean): Promise<PromiseSettledResult<void>[]> {
    const { db } = handle;
    const [a, b] = [randomUUID(), randomUUID()];
    await insertFills(db, [fill(a), fill(b)]);
    let t1HoldsA!: () => void;
    const t1Holds = new Promise<void>((r) => (t1HoldsA = r));
    let t2Pid!: (pid: number) => void;
    const t2Started = new Promise<number>((r) => (t2Pid = r));
    const t1 = db.transaction().execute(async (trx) => {
      if (locked) await lockFills(trx, [a, b]);
      await touch(trx, a, 't1');
      t1HoldsA();
      await waitsForLock(db, await t2Started);
      await touch(trx, b, 't1');
    });
    const t2 = t1Holds.then(() =>
      db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        if (!locked) await touch(trx, b, 't2'); // holds B: then T1 waits for it, and T2 for A
        t2Pid(rows[0]!.pid);
        if (locked) await lockFills(trx, [b, a]);
        await touch(trx, a, 't2');
        await touch(trx, b, 't2');
      }),
    );
    return Promise.allSettled([t1, t2]);
  }

  it('deadlocks without lockFills (the control: the interleaving below is one PostgreSQL refuses)', async () => {
    const results = await opposite(false);
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
    expect(codes).toEqual(['40P01']);
  });

  it('makes the same two writers wait instead, both committed in turn', async () => {
    const results = await opposite(true);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  });

  it('lets the keeper, candles and positions writers of overlapping fills run at once, each move made once', async () => {
    const { db } = handle;
    const ids = Array.from({ length: 120 }, () => randomUUID());
    await insertFills(
      db,
      ids.map((id) => fill(id)),
    );
    const batches = [randomUUID(), randomUUID(), randomUUID()];
    const thirds = [ids.slice(0, 40), ids.slice(40, 80), ids.slice(80)];
    // Planning: each batch takes its third, the fills named in any order.
    await Promise.all(
      batches.map((batchId, i) =>
        db.transaction().execute(async (trx) => {
          await lockFills(trx, shuffled(thirds[i]!));
          expect(await moveFillsToBatch(trx, shuffled(thirds[i]!), batchId, NOW)).toBe(40);
        }),
      ),
    );
    // At once: each batch's confirmation (twice, as the sender and the sweep do), the sweep's
    // retrying mark, the candles claim of every fill, each in its own order.
    const confirm = (batchId: string, mine: string[]) =>
      db.transaction().execute(async (trx) => {
        await lockFills(trx, shuffled(mine));
        const landed = mine.slice(0, 30);
        const ended = await endFills(trx, batchId, shuffled(landed), { status: 'settled', settleTx: 'sig', now: NOW });
        const released = await releaseFills(trx, batchId, shuffled(mine.slice(30)), null, NOW, false);
        for (const id of shuffled(ended)) await touch(trx, id, 'amounts');
        return ended.length + released.length;
      });
    const writers = await Promise.all([
      ...batches.flatMap((batchId, i) => [confirm(batchId, thirds[i]!), confirm(batchId, thirds[i]!)]),
      ...batches.map((batchId, i) =>
        db.transaction().execute(async (trx) => {
          await lockFills(trx, shuffled(thirds[i]!));
          return (await markRetrying(trx, batchId, 1, 'slow', NOW)).length * 0;
        }),
      ),
      db.transaction().execute(async (trx) => {
        await lockFills(trx, shuffled(ids));
        return (await setCandleState(trx, shuffled(ids), 0, 1)) * 0;
      }),
    ]);
    // Each batch's 40 fills moved once between the two confirmations.
    expect(writers.slice(0, 6).reduce((s, n, i) => (i % 2 === 0 ? [...s, n + writers[i + 1]!] : s), [] as number[])).toEqual([40, 40, 40]);
    const rows = await db.selectFrom('clob_fills').select(['id', 'status', 'candle_state']).where('id', 'in', ids).execute();
    expect(rows.filter((r) => r.status === 'settled')).toHaveLength(90);
    expect(rows.filter((r) => r.status === 'matched')).toHaveLength(30);
    expect(rows.every((r) => Number(r.candle_state) === 1)).toBe(true);
    // The positions claim of the settled ones, by two runs at once: each fill claimed once.
    const settled = rows.filter((r) => r.status === 'settled').map((r) => r.id);
    const claims = await Promise.all(
      [0, 1].map(() =>
        db.transaction().execute(async (trx) => {
          await lockFills(trx, shuffled(settled));
          return markFillsApplied(trx, shuffled(settled));
        }),
      ),
    );
    expect(claims.sort()).toEqual([0, 90]);
  });
});

describe('lock order', () => {
  it('is code-point order, each key once', () => {
    expect(lockOrder(['b', 'B', 'a-1', 'a1', 'b', 'A'])).toEqual(['A', 'B', 'a-1', 'a1', 'b']);
  });
});

for (const dialect of DIALECTS) {
  describe.skipIf(!dialect.available)(`token-account passes that meet closed accounts on ${dialect.name}`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await dialect.open();
    });
    afterAll(async () => {
      await handle?.close();
    });

    it('run at once in one address order, upserts and deletes alike: the newest read wins every account', async () => {
      const { db } = handle;
      const addresses = Array.from({ length: 200 }, (_, i) => `Pass${String(i).padStart(4, '0')}`);
      const row = (address: string, w: number) => ({
        address,
        mint: 'MintPass',
        owner: 'PassOwner',
        amount: BigInt(w),
        slot: 30n + BigInt(w),
      });
      await writeTokenAccountReads(
        db,
        addresses.map((a) => row(a, 0)),
        [],
      );
      // Writers 0-1 find every third account closed (at their older slots); 2-7 read them all, shuffled.
      await Promise.all(
        Array.from({ length: 8 }, (_, w) =>
          db.transaction().execute(async (trx) => {
            const closed = w < 2 ? addresses.filter((_, i) => i % 3 === w).map((address) => ({ address, slot: 30n + BigInt(w) })) : [];
            const shut = new Set(closed.map((c) => c.address));
            const rows = shuffled(addresses.filter((a) => !shut.has(a)).map((a) => row(a, w)));
            await writeTokenAccountReads(trx, rows, shuffled(closed));
          }),
        ),
      );
      expect((await balancesByOwner(db, 'PassOwner')).get('MintPass')).toBe(7n * 200n);
      // A closed account read after the newest write goes; an older closed read next to it does not.
      await writeTokenAccountReads(
        db,
        [row('Pass0001', 8)],
        [
          { address: 'Pass0000', slot: 40n },
          { address: 'Pass0001', slot: 36n },
        ],
      );
      expect((await balancesByOwner(db, 'PassOwner')).get('MintPass')).toBe(7n * 199n + 8n - 7n);
    });
  });
}
