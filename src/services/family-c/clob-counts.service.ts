/**
 * The orderbook's numbers an operator alerts on, read at scrape time by any API node (so each
 * reports the cluster's state): fills per status with the age of the oldest unsettled one, and
 * markets per status. Two grouped queries; the metrics registry reads them at most every 500 ms.
 */
import { clobMarketStatusCounts } from '../../../db/repositories/clob-markets.repository.js';
import type { FamilyCContext } from './context.js';
import { keeperCounts } from './settlement/keeper-admin.service.js';

export async function clobCounts(ctx: Pick<FamilyCContext, 'db'>, nowMs = Date.now()) {
  const [fills, markets] = await Promise.all([keeperCounts(ctx, nowMs), clobMarketStatusCounts(ctx.db)]);
  return {
    fills: Object.entries(fills.fillsByStatus).map(([status, count]) => ({ status, count })),
    oldestUnsettledSeconds: fills.oldestUnsettledAgeSeconds,
    markets: markets.map((r) => ({ status: r.status, count: Number(r.n) })),
  };
}
