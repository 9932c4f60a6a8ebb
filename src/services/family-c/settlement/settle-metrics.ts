/**
 * What the keeper tells the metrics (src/infra/clob-metrics.ts) as fills change status: one
 * counter step per (from, to) pair, and each settled fill's match → settled latency. Called after
 * the database transaction that moved them committed, with the rows as they were before it.
 */
import type { ClobMetrics } from '../../../infra/clob-metrics.js';

type Moved = { status: string; matched_at: string };

export function countMoves(metrics: ClobMetrics, rows: readonly Pick<Moved, 'status'>[], to: string): void {
  const byFrom = new Map<string, number>();
  for (const r of rows) byFrom.set(r.status, (byFrom.get(r.status) ?? 0) + 1);
  for (const [from, n] of byFrom) metrics.fillTransitions.inc({ from, to }, n);
}

export function countSettled(metrics: ClobMetrics, rows: readonly Moved[], nowMs = Date.now()): void {
  countMoves(metrics, rows, 'settled');
  for (const r of rows) metrics.settleLatency.observe(Math.max(0, (nowMs - Date.parse(r.matched_at)) / 1000));
}

/** The rows among `rows` whose ids are in `ids` (what a guarded UPDATE actually moved). */
export function movedRows<T extends { id: string }>(rows: readonly T[], ids: readonly string[]): T[] {
  const moved = new Set(ids);
  return rows.filter((r) => moved.has(r.id));
}
