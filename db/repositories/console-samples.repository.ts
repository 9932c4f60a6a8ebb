/** The console's per-node, per-minute samples (migration 0018); one query per function. */
import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ConsoleSamplesTable, Database } from '../schema.js';

/** Writes a node's minute (a second write of the same minute replaces it: the sampler's numbers are the minute's totals). */
export async function upsertSample(db: Kysely<Database>, row: Insertable<ConsoleSamplesTable>): Promise<void> {
  const { node_id: _node, minute: _minute, ...values } = row;
  await db
    .insertInto('console_samples')
    .values(row)
    .onConflict((oc) => oc.columns(['node_id', 'minute']).doUpdateSet(values))
    .execute();
}

export interface SampleMinute {
  minute: string;
  http_requests: number;
  http_4xx: number;
  http_5xx: number;
  orders: number;
  fills_matched: number;
  fills_settled: number;
  settle_p50_ms: number | null;
  settle_p99_ms: number | null;
  queue_depth: number;
}

/**
 * Every minute since `since`, nodes summed: counts add up; latency percentiles and the queue depth
 * (every node sees the same queues) take the largest node's.
 */
export async function listSampleMinutes(db: Kysely<Database>, since: string): Promise<SampleMinute[]> {
  const rows = await db
    .selectFrom('console_samples')
    .select([
      'minute',
      sql<number>`sum(http_requests)`.as('http_requests'),
      sql<number>`sum(http_4xx)`.as('http_4xx'),
      sql<number>`sum(http_5xx)`.as('http_5xx'),
      sql<number>`sum(orders)`.as('orders'),
      sql<number>`sum(fills_matched)`.as('fills_matched'),
      sql<number>`sum(fills_settled)`.as('fills_settled'),
      sql<number | null>`max(settle_p50_ms)`.as('settle_p50_ms'),
      sql<number | null>`max(settle_p99_ms)`.as('settle_p99_ms'),
      sql<number>`max(queue_depth)`.as('queue_depth'),
    ])
    .where('minute', '>=', since)
    .groupBy('minute')
    .orderBy('minute')
    .execute();
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    minute: r.minute,
    http_requests: n(r.http_requests) ?? 0,
    http_4xx: n(r.http_4xx) ?? 0,
    http_5xx: n(r.http_5xx) ?? 0,
    orders: n(r.orders) ?? 0,
    fills_matched: n(r.fills_matched) ?? 0,
    fills_settled: n(r.fills_settled) ?? 0,
    settle_p50_ms: n(r.settle_p50_ms),
    settle_p99_ms: n(r.settle_p99_ms),
    queue_depth: n(r.queue_depth) ?? 0,
  }));
}

export async function pruneSamples(db: Kysely<Database>, before: string): Promise<number> {
  const result = await db.deleteFrom('console_samples').where('minute', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
