/**
 * `GET /v2/clob/markets/{id}/prices-history`: a market's candles of one outcome, read from the
 * candle table the candles job keeps (candles.service.ts): one range of its primary key, never
 * the fills. Only buckets with fills have a candle (no empty candles are made up).
 *
 * The range: candles whose bucket holds a second of [from, to] (so `t` may be before `from`, by
 * less than one interval). `to` defaults to now, `from` to the start of the 1,000th bucket before
 * `to`'s. A range of more than 1,000 buckets is refused (400 INVALID_RANGE) rather than cut: an
 * answer never silently ends early, and a client pages by moving `from` and `to`.
 */
import { candlesBetween, toCandle } from '../../../db/repositories/clob-candles.repository.js';
import { DomainError } from '../../domain/errors.js';
import { bucketStart, bucketsBetween, CANDLE_INTERVALS, inOutcome, type CandleInterval } from '../../domain/orderbook/index.js';
import type { Outcome } from '../../domain/orderbook/index.js';
import type { FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';

export const MAX_CANDLES = 1_000;

export interface HistoryQuery {
  outcome: Outcome;
  interval: CandleInterval;
  from?: number;
  to?: number;
}

export async function priceHistory(ctx: Pick<FamilyCContext, 'db'>, idOrSlug: string, q: HistoryQuery, nowMs = Date.now()) {
  const seconds = CANDLE_INTERVALS[q.interval];
  const to = q.to ?? Math.floor(nowMs / 1000);
  const from = q.from ?? Math.max(0, bucketStart(to, seconds) - (MAX_CANDLES - 1) * seconds);
  if (from > to) throw new DomainError('invalid', 'INVALID_RANGE', `from (${from}) is after to (${to})`);
  const buckets = bucketsBetween(from, to, seconds);
  if (buckets > MAX_CANDLES)
    throw new DomainError(
      'invalid',
      'INVALID_RANGE',
      `from..to spans ${buckets} candles of ${q.interval}; at most ${MAX_CANDLES} per request (narrow the range or take a longer interval)`,
      { maxCandles: MAX_CANDLES },
    );
  const market = await requireClobMarket(ctx, idOrSlug);
  const rows = await candlesBetween(ctx.db, market.id, seconds, bucketStart(from, seconds), to, MAX_CANDLES);
  return {
    marketId: market.id,
    outcome: q.outcome,
    interval: q.interval,
    candles: rows.map((r) => inOutcome(toCandle(r), q.outcome)),
  };
}
