/**
 * Migration 0026 drops and narrows indexes written by every placed order and fill; no read that
 * used one may fall back on a scan. Over a 40,000-order, 40,000-fill history, every statement of
 * the reads that used them (placement-index-queries.ts) is explained on both databases: each
 * reaches clob_orders and clob_fills through an index (SQLite without ANALYZE, as the daemon runs
 * it; PostgreSQL after ANALYZE, as autovacuum leaves it), and SQLite through the very index the
 * read is about. The migration's down gives back the indexes it dropped.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as m0026 from '../../db/migrations/0026_clob_placement_indexes.js';
import { DIALECTS } from '../helpers/databases.js';
import { PLAN_CASES, plansOf } from './placement-index-queries.js';
import { seedHistory } from './placement-index-seed.js';

const DROPPED = [
  'clob_orders_status_expiry_idx',
  'clob_orders_market_status_idx',
  'clob_fills_positions_pending_idx',
  'clob_fills_batch_idx',
];
const CREATED = ['clob_orders_resting_market_idx', 'clob_fills_positions_waiting_idx', 'clob_fills_in_batch_idx'];

/** Lines of a plan that read a whole table of these two (SQLite: `SCAN t` without an index; PostgreSQL: a sequential scan). */
function fullScans(plan: string, postgres: boolean): string[] {
  const lines = plan.split(postgres ? '\n' : '; ');
  return postgres
    ? lines.filter((l) => /Seq Scan on clob_(orders|fills)/.test(l))
    : lines.filter((l) => /^SCAN (clob_orders|clob_fills|o|f)\b/.test(l) && !/USING (COVERING )?INDEX/.test(l));
}

describe.each(DIALECTS)('placement indexes on $name', ({ name, available, open }) => {
  const postgres = name === 'postgres';

  it.skipIf(!available)('every read that used a dropped index reads an index', { timeout: 180_000 }, async () => {
    const handle = await open();
    try {
      await seedHistory(handle.db);
      if (postgres) await sql`analyze`.execute(handle.db);
      for (const c of PLAN_CASES) {
        const plans = await plansOf(handle.db, postgres, c);
        expect(plans.length, c.name).toBeGreaterThan(0);
        for (const { sql: text, plan } of plans) {
          expect(fullScans(plan, postgres), `${c.name}: ${text}\n${plan}`).toEqual([]);
          expect(plan, `${c.name}: ${text}`).toMatch(postgres ? /Index/ : /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
          if (!postgres && c.sqliteIndex) expect(plan, `${c.name}: ${text}`).toContain(c.sqliteIndex);
        }
      }
    } finally {
      await handle.close();
    }
  });

  it.skipIf(!available)('down gives the dropped indexes back, up takes them again', async () => {
    const handle = await open();
    try {
      const indexes = async () => {
        const { rows } = postgres
          ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(handle.db)
          : await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(handle.db);
        return rows.map((r) => r.name);
      };
      const after = await indexes();
      expect(after).toEqual(expect.arrayContaining(CREATED));
      expect(after.filter((n) => DROPPED.includes(n))).toEqual([]);
      await m0026.down(handle.db as never);
      const before = await indexes();
      expect(before).toEqual(expect.arrayContaining(DROPPED));
      expect(before.filter((n) => CREATED.includes(n))).toEqual([]);
      await m0026.up(handle.db as never);
      expect((await indexes()).sort()).toEqual(after.sort());
    } finally {
      await handle.close();
    }
  });
});
