/**
 * An orderbook market as the console shows it (/admin/markets/c/{id}): its book (every level of
 * both outcomes), recent trades, the settlement pipeline (fills per status, batches in flight with
 * their signatures and ages), the stuck list (fills not settled STUCK_AFTER_SEC after matching,
 * with retry count and last error); and the operator's cancel of every resting order.
 */
import { batchesInFlight, fillsByMarket, restingOrderIds, stuckFills } from '../../../db/repositories/console.repository.js';
import { listMarketFills } from '../../../db/repositories/clob-fills.repository.js';
import type { ClobBookReads } from './book-reads.js';
import type { FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';
import type { MatcherPort } from './matcher/matcher.port.js';
import { presentFill } from './orders/order.presenter.js';

export const STUCK_AFTER_SEC = 60;
/** The matcher queue takes at most this many ids per operation (jobs/matcher-queue.ts). */
const CANCEL_CHUNK = 500;

const ageSeconds = (iso: string, nowMs: number) => Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));

export async function marketConsole(ctx: FamilyCContext, tops: ClobBookReads, idOrSlug: string, nowMs = Date.now()) {
  const market = await requireClobMarket(ctx, idOrSlug);
  const [book, trades, fills, batches, stuck] = await Promise.all([
    tops.view(market.id),
    listMarketFills(ctx.db, market.id, 50),
    fillsByMarket(ctx.db, [market.id]),
    batchesInFlight(ctx.db, market.id),
    stuckFills(ctx.db, market.id, new Date(nowMs - STUCK_AFTER_SEC * 1000).toISOString(), 100),
  ]);
  return {
    market: {
      id: market.id,
      slug: market.slug,
      name: market.name,
      status: market.status,
      outcome: market.outcome,
      marketPubkey: market.market_pubkey,
      vault: market.vault,
      yesTicker: market.yes_ticker,
      noTicker: market.no_ticker,
    },
    book,
    trades: trades.map(presentFill),
    fillsByStatus: Object.fromEntries(fills.map((f) => [f.status, Number(f.n)])),
    batches: batches.map((b) => ({
      id: b.id,
      fills: Number(b.fill_count),
      status: b.outbound_status,
      signature: b.signature,
      attempts: Number(b.attempts),
      lastError: b.last_error,
      ageSeconds: ageSeconds(b.created_at, nowMs),
    })),
    stuck: stuck.map((f) => ({
      id: f.id,
      status: f.status,
      fillType: f.fill_type,
      quantity: String(f.quantity),
      priceBps: Number(f.price_bps),
      outcome: f.outcome,
      retryCount: Number(f.retry_count),
      lastError: f.failure_reason,
      ageSeconds: ageSeconds(f.matched_at, nowMs),
    })),
  };
}

/** Cancels every resting order of a market (reason `operator`), through its matcher. */
export async function cancelAllResting(ctx: FamilyCContext, matcher: MatcherPort, idOrSlug: string): Promise<{ cancelled: string[] }> {
  const market = await requireClobMarket(ctx, idOrSlug);
  const ids = await restingOrderIds(ctx.db, market.id);
  const cancelled: string[] = [];
  for (let i = 0; i < ids.length; i += CANCEL_CHUNK) {
    cancelled.push(...(await matcher.cancelOrders(market.id, ids.slice(i, i + CANCEL_CHUNK), 'operator')).cancelled);
  }
  ctx.log.info({ market: market.id, cancelled: cancelled.length }, 'operator cancelled every resting order');
  return { cancelled };
}
