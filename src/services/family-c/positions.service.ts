/**
 * Positions and PnL (domain/orderbook/positions.ts) kept by a job from what settled: each
 * settled fill is applied once (claimed with its `positions_applied` flag in the same
 * transaction), and a winning position of a resolved market whose smart wallet now holds fewer
 * tokens than it bought was redeemed for the difference (after resolution nothing else moves
 * those tokens). Reads never recompute from the fill history.
 */
import { PublicKey } from '@solana/web3.js';
import { normalizeFill } from '../../../db/repositories/clob-fills.repository.js';
import {
  findPosition, listPositions, markFillsApplied, openWinningPositions, savePosition, settledFillsToApply,
} from '../../../db/repositories/clob-positions.repository.js';
import { tokenAccountsOf } from '../../../db/repositories/token-accounts.repository.js';
import { findUserEscrowPda } from '../../chain/programs/exchange/index.js';
import {
  applyMove, applyRedemption, avgEntryPrice, currentPrice, EMPTY_POSITION, fillMoves, unrealizedPnl, type PositionState,
} from '../../domain/orderbook/index.js';
import type { BookTops } from './book-tops.js';
import { parsePubkey, type FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';

class ClaimedElsewhere extends Error {}

/** Applies up to `limit` settled fills; returns how many (0: nothing left). */
export async function applySettledFills(ctx: Pick<FamilyCContext, 'db'>, limit = 500): Promise<number> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const fills = (await settledFillsToApply(trx, limit)).map(normalizeFill);
      if (fills.length === 0) return 0;
      if ((await markFillsApplied(trx, fills.map((f) => f.id))) !== fills.length) throw new ClaimedElsewhere();
      const now = new Date().toISOString();
      const states = new Map<string, { owner: string; marketId: string; outcome: 'yes' | 'no'; state: PositionState }>();
      for (const f of fills) {
        for (const move of fillMoves(f)) {
          const key = `${move.owner}|${f.market_id}|${move.outcome}`;
          let entry = states.get(key);
          if (!entry) {
            const saved = await findPosition(trx, move.owner, f.market_id, move.outcome);
            entry = { owner: move.owner, marketId: f.market_id, outcome: move.outcome, state: saved ?? EMPTY_POSITION };
            states.set(key, entry);
          }
          entry.state = applyMove(entry.state, move);
        }
      }
      for (const e of states.values()) await savePosition(trx, { owner: e.owner, marketId: e.marketId, outcome: e.outcome, ...e.state, updatedAt: now });
      return fills.length;
    });
  } catch (error) {
    if (error instanceof ClaimedElsewhere) return 0; // a concurrent run applies them
    throw error;
  }
}

/** Realises redemptions: winning positions whose smart wallet holds fewer tokens than they count. */
export async function applyRedemptions(ctx: Pick<FamilyCContext, 'db' | 'programId'>, limit = 500): Promise<number> {
  let applied = 0;
  for (const p of await openWinningPositions(ctx.db, limit)) {
    const escrow = findUserEscrowPda(new PublicKey(p.owner), ctx.programId)[0].toBase58();
    const held = (await tokenAccountsOf(ctx.db, escrow, [p.mint])).reduce((s, a) => s + a.amount, 0n);
    if (held >= p.netQuantity) continue;
    await ctx.db.transaction().execute(async (trx) => {
      const saved = await findPosition(trx, p.owner, p.marketId, p.outcome);
      if (!saved || saved.netQuantity <= held) return;
      const next = applyRedemption(saved, saved.netQuantity - held);
      await savePosition(trx, { ...saved, ...next, updatedAt: new Date().toISOString() });
      applied++;
    });
  }
  return applied;
}

function priceOf(status: string, marketOutcome: string | null, outcome: 'yes' | 'no', top: { bestBid: Record<string, number | null>; bestAsk: Record<string, number | null> }): number | null {
  if (status === 'resolved') return marketOutcome?.toLowerCase() === outcome ? 10_000 : 0;
  return currentPrice(top.bestBid[outcome] ?? null, top.bestAsk[outcome] ?? null);
}

export async function positionsView(ctx: FamilyCContext, tops: BookTops, pubkey: string, marketRef?: string) {
  const owner = parsePubkey(pubkey).toBase58();
  const marketId = marketRef ? (await requireClobMarket(ctx, marketRef)).id : undefined;
  const rows = await listPositions(ctx.db, owner, marketId);
  const topCache = new Map<string, Awaited<ReturnType<BookTops['top']>>>();
  const positions = [];
  for (const r of rows) {
    if (!topCache.has(r.marketId)) topCache.set(r.marketId, await tops.top(r.marketId));
    const price = priceOf(r.marketStatus, r.marketOutcome, r.outcome, topCache.get(r.marketId)!);
    const unrealized = unrealizedPnl(r, price);
    positions.push({
      id: r.id, marketId: r.marketId, ownerPubkey: r.owner, outcome: r.outcome,
      netQuantity: r.netQuantity.toString(), avgEntryPrice: avgEntryPrice(r), totalCost: r.totalCost.toString(), totalProceeds: r.totalProceeds.toString(),
      totalFees: r.totalFees.toString(), realizedPnl: r.realizedPnl.toString(), unrealizedPnl: unrealized === null ? null : unrealized.toString(),
      currentPrice: price, marketSlug: r.marketSlug, marketTitle: r.marketTitle, marketStatus: r.marketStatus ?? null, updatedAt: r.updatedAt,
    });
  }
  return { positions };
}

export async function positionsSummary(ctx: FamilyCContext, tops: BookTops, pubkey: string) {
  const { positions } = await positionsView(ctx, tops, pubkey);
  const markets = new Map<string, { marketId: string; marketSlug: string; realizedPnl: bigint; unrealizedPnl: bigint }>();
  let realized = 0n;
  let unrealized = 0n;
  let fees = 0n;
  let active = 0;
  let resolved = 0;
  for (const p of positions) {
    realized += BigInt(p.realizedPnl);
    unrealized += BigInt(p.unrealizedPnl ?? '0');
    fees += BigInt(p.totalFees);
    if (p.marketStatus === 'resolved') resolved++;
    else if (p.netQuantity !== '0') active++;
    const m = markets.get(p.marketId) ?? { marketId: p.marketId, marketSlug: p.marketSlug, realizedPnl: 0n, unrealizedPnl: 0n };
    m.realizedPnl += BigInt(p.realizedPnl);
    m.unrealizedPnl += BigInt(p.unrealizedPnl ?? '0');
    markets.set(p.marketId, m);
  }
  return {
    pubkey: parsePubkey(pubkey).toBase58(),
    totalRealizedPnl: realized.toString(), totalUnrealizedPnl: unrealized.toString(), totalFees: fees.toString(),
    activePositions: active, resolvedPositions: resolved,
    markets: [...markets.values()].map((m) => ({ ...m, realizedPnl: m.realizedPnl.toString(), unrealizedPnl: m.unrealizedPnl.toString() })),
  };
}
