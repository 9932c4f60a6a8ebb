/** Which matcher last took each orderbook market (its fencing epoch and node), for operators. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface MatcherEpochRow {
  marketId: string;
  slug: string;
  status: string;
  epoch: bigint;
  /** The instance id that bumped the epoch last (null before any matcher took the market). */
  node: string | null;
}

/** Every orderbook market that needs a matcher (all but those still being created), oldest first. */
export async function listMatcherEpochs(db: Kysely<Database>): Promise<MatcherEpochRow[]> {
  const rows = await db
    .selectFrom('markets as m')
    .innerJoin('clob_markets as c', 'c.market_id', 'm.id')
    .select(['m.id', 'm.slug', 'm.status', 'c.matcher_epoch', 'c.matcher_node'])
    .where('m.status', '!=', 'creating')
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
  return rows.map((r) => ({ marketId: r.id, slug: r.slug, status: r.status, epoch: BigInt(r.matcher_epoch), node: r.matcher_node }));
}
