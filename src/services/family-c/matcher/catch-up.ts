/**
 * What a matcher catches up with from the database, on a timer (`startCatchUp`, every
 * CATCH_UP_MS, started with the matcher role by src/features/clob-matcher.ts):
 * the database is the truth, and a notification to the matcher is best effort.
 * - market statuses it was not told of (the call failed, or reached a node that was handing the
 *   market over), and a resolved market taken over with orders still resting;
 * - give-backs the settlement keeper recorded (a failed fill's quantity back to the innocent
 *   party's resting order), applied in the matcher's own batch, once.
 * Both are idempotent operations, so one that crosses a notification or a second timer round
 * changes nothing more.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { normalizeFill, pendingGiveBacks } from '../../../../db/repositories/clob-fills.repository.js';
import { clobMarketStatuses } from '../../../../db/repositories/clob-markets.repository.js';
import type { Database } from '../../../../db/schema.js';
import type { Matcher } from './matcher.js';
import type { GiveBackFill } from './matcher-types.js';

/**
 * Queues a status catch-up for each owned market that looks behind the database; returns those
 * markets. The operation reads the status again inside the matcher's batch, so a notification
 * that lands between this read and the operation is never undone by an older status.
 */
export async function reconcileStatuses(matcher: Matcher, db: Kysely<Database>): Promise<string[]> {
  const rows = await clobMarketStatuses(db, [...matcher.markets.keys()]);
  const behind = rows.filter((row) => {
    const m = matcher.markets.get(row.id);
    return (
      m !== undefined && row.status !== 'creating' && (m.status !== row.status || (row.status === 'resolved' && m.book.index.size > 0))
    );
  });
  await Promise.all(behind.map((row) => matcher.submit({ kind: 'syncStatus', marketId: row.id })));
  return behind.map((row) => row.id);
}

/**
 * Hands the pending give-backs of the owned markets to their books (at most `limit` a round, in
 * fill order); returns how many it handed over. The fill's share of the order's rounding state
 * is in the order's own price terms: the maker's price and leg, or the taker's.
 */
export async function applyGiveBacks(matcher: Matcher, db: Kysely<Database>, limit = 200): Promise<number> {
  const rows = (await pendingGiveBacks(db, [...matcher.markets.keys()], limit)).map(normalizeFill);
  const byMarket = new Map<string, GiveBackFill[]>();
  for (const r of rows) {
    const asMaker = r.give_back_order_id === r.maker_order_id;
    const fill: GiveBackFill = {
      fillId: r.id,
      orderId: r.give_back_order_id!,
      quantity: r.quantity,
      notional: r.quantity * BigInt(asMaker ? r.maker_price_bps : r.price_bps),
      usdc: asMaker ? r.maker_usdc : r.usdc_amount,
    };
    byMarket.set(r.market_id, [...(byMarket.get(r.market_id) ?? []), fill]);
  }
  await Promise.all([...byMarket].map(([marketId, fills]) => matcher.submit({ kind: 'giveBack', marketId, fills })));
  return rows.length;
}

/** How often a matcher catches up with the database (market statuses, give-backs). */
export const CATCH_UP_MS = 2_000;

/** Runs both catch-ups every `everyMs`, a slow round never joined by the next; returns the stop. */
export function startCatchUp(matcher: Matcher, db: Kysely<Database>, log: Logger, everyMs = CATCH_UP_MS): () => void {
  let catchingUp = false;
  const timer = setInterval(() => {
    if (catchingUp) return;
    catchingUp = true;
    void Promise.all([
      reconcileStatuses(matcher, db).then(
        (markets) => markets.length > 0 && log.warn({ markets }, 'matcher caught up with market statuses it was not told of'),
        (err: Error) => log.warn({ err }, 'market status reconciliation failed'),
      ),
      applyGiveBacks(matcher, db).then(
        (n) => n > 0 && log.info({ fills: n }, "failed fills' quantities handed back to resting orders"),
        (err: Error) => log.warn({ err }, 'give-backs failed; retried next round'),
      ),
    ]).finally(() => {
      catchingUp = false;
    });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
