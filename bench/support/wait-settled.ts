/**
 * Waits until these fills of one market have settled and answers each one's `settled_at` (ms):
 * the settlement bench's measure, so a slow poll (it shares the keeper's process) costs no
 * precision. The poll asks whether any of the market's fills is still on its way (its status
 * index, one row at most) rather than reading every id's row: reading 960 rows every 250 ms was
 * 177 ms of a drain's SQL (issue 31's settle profile), work of the bench charged to the keeper.
 * It no longer counts them either: on PostgreSQL a count visits every waiting fill's heap row
 * (no vacuum has marked the fresh table's pages all-visible), 22 ms of the server's time mid-drain,
 * four times a second (docs/performance.md, thirteenth pass). The rows are read once, at the end.
 */
import type { Kysely } from 'kysely';
import { UNSETTLED_FILL_STATUSES } from '../../db/repositories/clob-commitments.repository.js';
import type { Database } from '../../db/schema.js';

export async function waitSettled(
  db: Kysely<Database>,
  marketId: string,
  ids: string[],
  timeoutMs = 600_000,
): Promise<Map<string, number>> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    const waiting = await db
      .selectFrom('clob_fills')
      .select('id')
      .where('market_id', '=', marketId)
      .where('status', 'in', [...UNSETTLED_FILL_STATUSES])
      .limit(1)
      .executeTakeFirst();
    if (waiting) continue;
    const rows = await db.selectFrom('clob_fills').select(['id', 'status', 'settled_at']).where('id', 'in', ids).execute();
    const unsettled = rows.filter((r) => r.status !== 'settled');
    if (rows.length !== ids.length || unsettled.length > 0)
      throw new Error(`fills ended unsettled: ${unsettled.map((r) => `${r.id} ${r.status}`).join(', ') || 'some are missing'}`);
    return new Map(rows.map((r) => [r.id, Date.parse(r.settled_at!)]));
  }
  throw new Error('timed out waiting for every fill to settle');
}
