/**
 * Positions and PnL (domain/orderbook/positions.ts) kept by a job from what moved a smart
 * wallet's outcome tokens:
 * - each settled fill is applied once (claimed with its `positions_applied` flag in the same
 *   transaction); a sale of tokens not counted yet counts their split first (applyOwnerMove);
 * - then each wallet whose indexed outcome tokens differ from its positions, with no fill of its
 *   owner in that market still unsettled or unapplied, is explained by the splits, merges and
 *   redemptions its owner sent to the chain (domain/orderbook/wallet-moves.ts). The keeper writes
 *   a settled fill's balances in the transaction that marks it settled, so a fill that is counted
 *   is also in the balances compared.
 * Reads never recompute from the fill history.
 */
import {
  findPosition,
  findPositionsOf,
  hasUnappliedSettledFill,
  listPositions,
  markFillsApplied,
  savePosition,
  savePositions,
  settledFillsToApply,
  walletPositionGaps,
} from '../../../db/repositories/clob-positions.repository.js';
import { normalizeFill } from '../../../db/repositories/clob-fills.repository.js';
import { lockFills, lockOrder } from '../../../db/row-locks.js';
import { findClobWallet } from '../../../db/repositories/clob-wallets.repository.js';
import { hasUnsettledFill } from '../../../db/repositories/clob-commitments.repository.js';
import { findClobMarketById } from '../../../db/repositories/clob-markets.repository.js';
import { tokenAccountsOf } from '../../../db/repositories/token-accounts.repository.js';
import {
  applyOwnerMove,
  applyWalletMove,
  avgEntryPrice,
  currentPrice,
  EMPTY_POSITION,
  fillMoves,
  unrealizedPnl,
  walletMoves,
  type MarketPositions,
} from '../../domain/orderbook/index.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { BookTops } from './book-tops.js';
import { parsePubkey, type FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';

type Db = Kysely<Database> | Transaction<Database>;

class ClaimedElsewhere extends Error {}

async function loadPair(db: Db, owner: string, marketId: string): Promise<MarketPositions> {
  const [yes, no] = await Promise.all([findPosition(db, owner, marketId, 'yes'), findPosition(db, owner, marketId, 'no')]);
  return { yes: yes ?? EMPTY_POSITION, no: no ?? EMPTY_POSITION };
}

async function savePair(
  db: Db,
  owner: string,
  marketId: string,
  before: MarketPositions,
  after: MarketPositions,
  now: string,
): Promise<void> {
  for (const outcome of ['yes', 'no'] as const) {
    if (after[outcome] !== before[outcome]) await savePosition(db, { owner, marketId, outcome, ...after[outcome], updatedAt: now });
  }
}

/** Applies up to `limit` settled fills; returns how many (0: nothing left). */
export async function applySettledFills(ctx: Pick<FamilyCContext, 'db'>, limit = 500): Promise<number> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const fills = (await settledFillsToApply(trx, limit)).map(normalizeFill);
      if (fills.length === 0) return 0;
      // Fills, then positions, each in one order (db/row-locks.ts).
      await lockFills(
        trx,
        fills.map((f) => f.id),
      );
      if (
        (await markFillsApplied(
          trx,
          fills.map((f) => f.id),
        )) !== fills.length
      )
        throw new ClaimedElsewhere();
      const now = new Date().toISOString();
      // Every (owner, market) pair of the run read in one query (was two reads a pair).
      const moves = fills.flatMap((f) => fillMoves(f).map((move) => ({ move, marketId: f.market_id })));
      const saved = await findPositionsOf(trx, [...new Set(moves.map((m) => m.move.owner))], [...new Set(moves.map((m) => m.marketId))]);
      const savedAt = new Map(saved.map((p) => [`${p.owner}|${p.marketId}|${p.outcome}`, p]));
      const pairs = new Map<string, { owner: string; marketId: string; before: MarketPositions; after: MarketPositions }>();
      for (const { move, marketId } of moves) {
        const key = `${move.owner}|${marketId}`;
        let entry = pairs.get(key);
        if (!entry) {
          const pair = { yes: savedAt.get(`${key}|yes`) ?? EMPTY_POSITION, no: savedAt.get(`${key}|no`) ?? EMPTY_POSITION };
          entry = { owner: move.owner, marketId, before: pair, after: pair };
          pairs.set(key, entry);
        }
        entry.after = applyOwnerMove(entry.after, move);
      }
      // What changed, in key order (the positions lock order), in one statement (was one a position).
      const changed = lockOrder(pairs.keys()).flatMap((key) => {
        const e = pairs.get(key)!;
        return (['yes', 'no'] as const)
          .filter((outcome) => e.after[outcome] !== e.before[outcome])
          .map((outcome) => ({ owner: e.owner, marketId: e.marketId, outcome, ...e.after[outcome], updatedAt: now }));
      });
      await savePositions(trx, changed);
      return fills.length;
    });
  } catch (error) {
    if (error instanceof ClaimedElsewhere) return 0; // a concurrent run applies them
    throw error;
  }
}

/**
 * Counts the splits, merges and redemptions found in smart wallets (see the module comment), all
 * of them, page by page; returns how many wallets moved. A wallet with fills on their way is left
 * for a later run.
 */
export async function applyWalletMoves(ctx: Pick<FamilyCContext, 'db'>, pageSize = 500): Promise<number> {
  let applied = 0;
  for (let after: { owner: string; marketId: string } | null = null; ;) {
    const page = await walletPositionGaps(ctx.db, after, pageSize);
    for (const gap of page) if (await applyWalletGap(ctx, gap)) applied++;
    if (page.length < pageSize) return applied;
    after = page[page.length - 1]!;
  }
}

/** Explains one wallet's gap in one transaction; false when it waits for fills or explains nothing. */
async function applyWalletGap(ctx: Pick<FamilyCContext, 'db'>, gap: { owner: string; marketId: string }): Promise<boolean> {
  // While its fills settle, an owner's wallet differs from its positions at every run, and would
  // wait anyway: ask that first, with no transaction (up to three reads instead of eight statements
  // and a commit a gap: issue 31's drain). Skipping is always safe (a later run looks again); a gap
  // with no fill waiting is checked in the transaction below, in its order, as before.
  if ((await hasUnsettledFill(ctx.db, gap.owner, gap.marketId)) || (await hasUnappliedSettledFill(ctx.db, gap.owner, gap.marketId)))
    return false;
  return ctx.db.transaction().execute(async (trx) => {
    const [wallet, market] = await Promise.all([findClobWallet(trx, gap.owner), findClobMarketById(trx, gap.marketId)]);
    if (!wallet || !market?.yes_mint || !market.no_mint) return false;
    const winner = market.outcome === 'YES' ? 'yes' : market.outcome === 'NO' ? 'no' : null;
    if (market.status === 'resolved' && !winner) return false;
    // Positions and balances first, the fills after: a fill that lands in between is seen waiting.
    const before = await loadPair(trx, gap.owner, gap.marketId);
    const accounts = await tokenAccountsOf(trx, wallet.escrow, [market.yes_mint, market.no_mint]);
    const heldOf = (mint: string) => accounts.filter((a) => a.mint === mint).reduce((sum, a) => sum + a.amount, 0n);
    const held = { yes: heldOf(market.yes_mint), no: heldOf(market.no_mint) };
    if (await hasUnsettledFill(trx, gap.owner, gap.marketId)) return false;
    if (await hasUnappliedSettledFill(trx, gap.owner, gap.marketId)) return false;
    const moves = walletMoves(
      { yes: before.yes.netQuantity, no: before.no.netQuantity },
      held,
      market.status === 'resolved' ? winner : null,
    );
    if (moves.length === 0) return false;
    await savePair(trx, gap.owner, gap.marketId, before, moves.reduce(applyWalletMove, before), new Date().toISOString());
    return true;
  });
}

function priceOf(
  status: string,
  marketOutcome: string | null,
  outcome: 'yes' | 'no',
  top: { bestBid: Record<string, number | null>; bestAsk: Record<string, number | null> },
): number | null {
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
      id: r.id,
      marketId: r.marketId,
      ownerPubkey: r.owner,
      outcome: r.outcome,
      netQuantity: r.netQuantity.toString(),
      avgEntryPrice: avgEntryPrice(r),
      totalCost: r.totalCost.toString(),
      totalProceeds: r.totalProceeds.toString(),
      totalFees: r.totalFees.toString(),
      realizedPnl: r.realizedPnl.toString(),
      unrealizedPnl: unrealized === null ? null : unrealized.toString(),
      currentPrice: price,
      marketSlug: r.marketSlug,
      marketTitle: r.marketTitle,
      marketStatus: r.marketStatus ?? null,
      updatedAt: r.updatedAt,
    });
  }
  return { positions };
}

/**
 * Totals over the owner's positions. A position without a price has no unrealised PnL (null),
 * which is not zero: the totals add the priced ones, count the others apart (`unpricedPositions`),
 * and stay null when none is priced, so a client tells "no price" from "zero".
 */
export async function positionsSummary(ctx: FamilyCContext, tops: BookTops, pubkey: string) {
  const { positions } = await positionsView(ctx, tops, pubkey);
  const total = { realized: 0n, unrealized: null as bigint | null, fees: 0n, unpriced: 0, active: 0, resolved: 0 };
  const markets = new Map<
    string,
    { marketId: string; marketSlug: string; realizedPnl: bigint; unrealizedPnl: bigint | null; unpricedPositions: number }
  >();
  for (const p of positions) {
    const m = markets.get(p.marketId) ?? {
      marketId: p.marketId,
      marketSlug: p.marketSlug,
      realizedPnl: 0n,
      unrealizedPnl: null,
      unpricedPositions: 0,
    };
    total.realized += BigInt(p.realizedPnl);
    total.fees += BigInt(p.totalFees);
    m.realizedPnl += BigInt(p.realizedPnl);
    if (p.unrealizedPnl === null) {
      total.unpriced++;
      m.unpricedPositions++;
    } else {
      total.unrealized = (total.unrealized ?? 0n) + BigInt(p.unrealizedPnl);
      m.unrealizedPnl = (m.unrealizedPnl ?? 0n) + BigInt(p.unrealizedPnl);
    }
    if (p.marketStatus === 'resolved') total.resolved++;
    else if (p.netQuantity !== '0') total.active++;
    markets.set(p.marketId, m);
  }
  // No position at all: nothing is unpriced, and nothing held is worth 0.
  const unrealized = positions.length === 0 ? 0n : total.unrealized;
  return {
    pubkey: parsePubkey(pubkey).toBase58(),
    totalRealizedPnl: total.realized.toString(),
    totalUnrealizedPnl: unrealized === null ? null : unrealized.toString(),
    totalFees: total.fees.toString(),
    activePositions: total.active,
    resolvedPositions: total.resolved,
    unpricedPositions: total.unpriced,
    markets: [...markets.values()].map((m) => ({
      ...m,
      realizedPnl: m.realizedPnl.toString(),
      unrealizedPnl: m.unrealizedPnl === null ? null : m.unrealizedPnl.toString(),
    })),
  };
}
