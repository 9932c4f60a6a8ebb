/**
 * The console's markets (/admin/markets, GET /v2/admin/console/markets): every family's markets,
 * filterable by family, status and a search; for orderbook markets also their resting orders,
 * best bid and ask per outcome (from the resting orders), owner node and epoch, fills per status,
 * the oldest unsettled fill's age and the volume. Three grouped queries for the whole page.
 */
import type { Kysely } from 'kysely';
import { fillsByMarket, listConsoleMarkets, restingByMarket } from '../../../db/repositories/console.repository.js';
import type { Database } from '../../../db/schema.js';
import { FAMILY_OF_KIND } from './console-overview.service.js';

const KINDS_OF_FAMILY = { A: ['x402'], B: ['amm', 'pool'], C: ['clob'] } as const;
const UNSETTLED = new Set(['matched', 'settling', 'retrying']);

export interface ConsoleMarketsQuery {
  family?: 'A' | 'B' | 'C';
  status?: string;
  search?: string;
  limit: number;
}

interface Book {
  restingOrders: number;
  bestBid: { yes: number | null; no: number | null };
  bestAsk: { yes: number | null; no: number | null };
}

export async function consoleMarkets(db: Kysely<Database>, query: ConsoleMarketsQuery, nowMs = Date.now()) {
  const kinds = query.family ? KINDS_OF_FAMILY[query.family] : [undefined];
  const rows = (
    await Promise.all(kinds.map((kind) => listConsoleMarkets(db, { kind, status: query.status, search: query.search }, query.limit)))
  )
    .flat()
    .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
    .slice(0, query.limit);
  const clobIds = rows.filter((r) => r.kind === 'clob').map((r) => r.id);
  const [resting, fills] = await Promise.all([restingByMarket(db, clobIds), fillsByMarket(db, clobIds)]);
  const books = new Map<string, Book>();
  const book = (id: string) => {
    let b = books.get(id);
    if (!b) books.set(id, (b = { restingOrders: 0, bestBid: { yes: null, no: null }, bestAsk: { yes: null, no: null } }));
    return b;
  };
  for (const r of resting) {
    const b = book(r.market_id);
    b.restingOrders += Number(r.n);
    if (r.side === 'buy') b.bestBid[r.outcome] = Number(r.max_price);
    else b.bestAsk[r.outcome] = Number(r.min_price);
  }
  const settlement = new Map<string, { fillsByStatus: Record<string, number>; oldest: string | null; volumeRaw: bigint }>();
  for (const f of fills) {
    const s = settlement.get(f.market_id) ?? { fillsByStatus: {}, oldest: null, volumeRaw: 0n };
    s.fillsByStatus[f.status] = Number(f.n);
    s.volumeRaw += BigInt(f.volume ?? 0);
    if (UNSETTLED.has(f.status) && f.oldest && (s.oldest === null || String(f.oldest) < s.oldest)) s.oldest = String(f.oldest);
    settlement.set(f.market_id, s);
  }
  return rows.map((r) => {
    const s = settlement.get(r.id);
    return {
      id: r.id,
      slug: r.slug,
      family: FAMILY_OF_KIND[r.kind],
      kind: r.kind,
      name: r.name,
      status: r.status,
      outcome: r.outcome,
      chainMarketId: r.chain_market_id === null ? null : String(r.chain_market_id),
      createdAt: r.created_at,
      ...(r.kind === 'clob'
        ? {
            orderbook: {
              ...(books.get(r.id) ?? { restingOrders: 0, bestBid: { yes: null, no: null }, bestAsk: { yes: null, no: null } }),
              ownerNode: r.matcher_node ?? null,
              epoch: r.matcher_epoch === null || r.matcher_epoch === undefined ? null : String(r.matcher_epoch),
              fillsByStatus: s?.fillsByStatus ?? {},
              oldestUnsettledAgeSeconds: s?.oldest ? Math.max(0, Math.round((nowMs - Date.parse(s.oldest)) / 1000)) : null,
              volumeUsdcRaw: (s?.volumeRaw ?? 0n).toString(),
            },
          }
        : {}),
    };
  });
}
