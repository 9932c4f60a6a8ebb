/**
 * The console's overview (/admin, GET /v2/admin/console/overview): per family the markets by
 * status; for the orderbook the orders placed and fills matched and settled in the last minute
 * and hour (from the per-minute samples: the last complete minute), fills per status and the
 * oldest unsettled fill's age; payouts waiting for funds; failed jobs per queue.
 */
import type { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { countMarketsByKindAndStatus } from '../../../db/repositories/console.repository.js';
import { listSampleMinutes, type SampleMinute } from '../../../db/repositories/console-samples.repository.js';
import { fillStatusCounts } from '../../../db/repositories/clob-settlement.repository.js';
import type { Database } from '../../../db/schema.js';
import { moneyCounts } from '../family-a/money-admin.service.js';

export const FAMILY_OF_KIND = { x402: 'A', amm: 'B', pool: 'B', clob: 'C' } as const;
const UNSETTLED = new Set(['matched', 'settling', 'retrying']);
const MINUTE_MS = 60_000;

export interface ConsoleDeps {
  db: Kysely<Database>;
  queues: readonly Queue[];
}

function windowSums(minutes: SampleMinute[], nowMs: number) {
  const lastMinute = new Date(Math.floor(nowMs / MINUTE_MS) * MINUTE_MS - MINUTE_MS).toISOString();
  const sum = (rows: SampleMinute[], key: 'orders' | 'fills_matched' | 'fills_settled') => rows.reduce((s, r) => s + r[key], 0);
  const last = minutes.filter((m) => m.minute === lastMinute);
  return {
    ordersLastMinute: sum(last, 'orders'),
    ordersLastHour: sum(minutes, 'orders'),
    fillsMatchedLastMinute: sum(last, 'fills_matched'),
    fillsMatchedLastHour: sum(minutes, 'fills_matched'),
    fillsSettledLastMinute: sum(last, 'fills_settled'),
    fillsSettledLastHour: sum(minutes, 'fills_settled'),
  };
}

export async function consoleOverview(deps: ConsoleDeps, nowMs = Date.now()) {
  const [markets, minutes, fills, money, failed] = await Promise.all([
    countMarketsByKindAndStatus(deps.db),
    listSampleMinutes(deps.db, new Date(nowMs - 60 * MINUTE_MS).toISOString()),
    fillStatusCounts(deps.db),
    moneyCounts({ db: deps.db }),
    Promise.all(deps.queues.map(async (q) => ({ queue: q.name, failed: (await q.getJobCounts('failed')).failed ?? 0 }))),
  ]);
  const byFamily: Record<'A' | 'B' | 'C', Record<string, number>> = { A: {}, B: {}, C: {} };
  for (const m of markets) {
    const family = byFamily[FAMILY_OF_KIND[m.kind]];
    family[m.status] = (family[m.status] ?? 0) + Number(m.n);
  }
  const fillsByStatus: Record<string, number> = {};
  let oldest: string | null = null;
  for (const f of fills) {
    fillsByStatus[f.status] = Number(f.n);
    if (UNSETTLED.has(f.status) && f.oldest && (oldest === null || String(f.oldest) < oldest)) oldest = String(f.oldest);
  }
  return {
    families: {
      A: { marketsByStatus: byFamily.A, inboundTransfers: Object.fromEntries(money.transfers.map((t) => [t.state, t.count])) },
      B: { marketsByStatus: byFamily.B },
      C: {
        marketsByStatus: byFamily.C,
        ...windowSums(minutes, nowMs),
        fillsByStatus,
        oldestUnsettledAgeSeconds: oldest ? Math.max(0, Math.round((nowMs - Date.parse(oldest)) / 1000)) : null,
      },
    },
    fundsAwaiting: money.awaitingFunds,
    failedJobs: failed.filter((f) => f.failed > 0),
  };
}

export async function consoleSamples(deps: Pick<ConsoleDeps, 'db'>, hours: number, nowMs = Date.now()) {
  return listSampleMinutes(deps.db, new Date(nowMs - hours * 60 * MINUTE_MS).toISOString());
}
