/**
 * Family B's indexer: copies market accounts and the token accounts of their outcome mints into
 * the database, each row stamped with the slot it was read at (older reads never overwrite newer
 * rows). The full pass is the truth; change notifications only make it faster.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { rebuildableTransaction } from '../../../db/database.js';
import { listAllMints } from '../../../db/repositories/chain-markets.repository.js';
import {
  deleteClosedTokenAccount,
  deleteUnseenForMint,
  upsertTokenAccounts,
  type TokenAccountRow,
} from '../../../db/repositories/token-accounts.repository.js';
import { marketAccountFilters } from '@pmx/programs';
import { decodeTokenAccountSnapshot, tokenAccountsOfMintFilters } from '../token-account-index.js';
import type { FamilyBContext } from './context.js';
import { indexLoadedMarket, marketFromSnapshot, readMarketFromChain, type LoadedMarket } from './market-reader.js';
import { timeSlicer, yieldToEventLoop, type Slicer } from '../../infra/time-slice.js';

/** All token accounts of one mint, as of one read. */
async function indexMint(ctx: FamilyBContext, mint: string): Promise<number> {
  const accounts = await ctx.chain.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), tokenAccountsOfMintFilters(mint));
  const rows = accounts.map(decodeTokenAccountSnapshot).filter((r): r is TokenAccountRow => r !== null);
  await upsertTokenAccounts(ctx.db, rows);
  const slot = rows.length > 0 ? rows[0]!.slot : BigInt(await ctx.chain.getSlot());
  await deleteUnseenForMint(
    ctx.db,
    mint,
    rows.map((r) => r.address),
    slot,
  );
  return rows.length;
}

export async function refreshMarket(ctx: FamilyBContext, marketId: bigint): Promise<{ tokenAccounts: number } | null> {
  const market = await readMarketFromChain(ctx, marketId);
  if (!market) return null;
  await indexLoadedMarket(ctx.db, market);
  if (!market.account.mintsInitialized) return { tokenAccounts: 0 };
  const counts = await Promise.all([indexMint(ctx, market.yesMint.toBase58()), indexMint(ctx, market.noMint.toBase58())]);
  return { tokenAccounts: counts[0] + counts[1] };
}

export interface FullPassResult {
  markets: number;
  tokenAccounts: number;
}

/** Markets whose token accounts are read together (one filtered read per mint). */
const READ_BATCH = 25;
/**
 * A database transaction takes markets until it has run this long (at least one), then commits
 * and hands the event loop back: better-sqlite3 is synchronous, so a transaction is one block of
 * the event loop however its queries are awaited. Bounded by time, not count, because a count
 * that takes 20 ms on a quiet machine takes 200 ms on a busy one.
 */
const WRITE_SLICE_MS = 5;

/**
 * The token accounts of `mints`, grouped by mint: one filtered read per mint (on the embedded
 * cluster an index lookup of that mint's accounts; on a real one a server-side filter).
 */
async function tokenAccountsByMint(ctx: FamilyBContext, mints: string[], slice: Slicer): Promise<Map<string, TokenAccountRow[]>> {
  const byMint = new Map<string, TokenAccountRow[]>();
  for (const mint of mints) {
    const accounts = await ctx.chain.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), tokenAccountsOfMintFilters(mint));
    byMint.set(
      mint,
      accounts.map(decodeTokenAccountSnapshot).filter((r): r is TokenAccountRow => r !== null),
    );
    await slice();
  }
  return byMint;
}

/**
 * Rebuilds the index from the chain: every market account, then, 25 markets at a time, their
 * mints' token accounts, written in database transactions of about WRITE_SLICE_MS each that do
 * not wait for the disk (the index is rebuilt from the chain whenever lost: rebuildableTransaction).
 * O(markets + their token accounts): nothing scans the whole ledger, and the pass hands the event
 * loop back every few milliseconds so that requests keep being answered (bench/index-scaling:
 * /health p99 during a pass at 100 to 10,000 markets).
 */
export async function fullIndexPass(
  ctx: FamilyBContext,
  progress?: (done: number, total: number) => Promise<void>,
): Promise<FullPassResult> {
  const slice = timeSlicer(5);
  const accounts = await ctx.chain.getProgramAccounts(ctx.programId.toBase58(), marketAccountFilters());
  let markets = 0;
  let tokenAccounts = 0;
  let done = 0;
  // Markets are decoded a batch at a time and dropped after it: a pass over 10,000 markets that
  // held them all made every young-generation GC copy them (15-30 ms pauses each).
  for (let start = 0; start < accounts.length; start += READ_BATCH) {
    const batch = accounts
      .slice(start, start + READ_BATCH)
      .map((a) => marketFromSnapshot(ctx, a, { cache: false }))
      .filter((m): m is LoadedMarket => m !== null);
    markets += batch.length;
    // Taken before the reads: a mint without accounts deletes only rows older than its read.
    const slot = BigInt(await ctx.chain.getSlot());
    const live = batch.filter((m) => m.account.mintsInitialized);
    const byMint = await tokenAccountsByMint(
      ctx,
      live.flatMap((m) => [m.yesMint.toBase58(), m.noMint.toBase58()]),
      slice,
    );
    await yieldToEventLoop(); // the reads' last slice must not run on into the first write
    for (let next = 0; next < batch.length;) {
      await rebuildableTransaction(ctx.db, async (trx) => {
        const began = performance.now();
        const rows: TokenAccountRow[] = [];
        do {
          const market = batch[next++]!;
          await indexLoadedMarket(trx, market);
          if (!market.account.mintsInitialized) continue;
          for (const mint of [market.yesMint.toBase58(), market.noMint.toBase58()]) {
            const seen = byMint.get(mint) ?? [];
            await deleteUnseenForMint(
              trx,
              mint,
              seen.map((r) => r.address),
              seen[0]?.slot ?? slot,
            );
            rows.push(...seen);
          }
        } while (next < batch.length && performance.now() - began < WRITE_SLICE_MS);
        await upsertTokenAccounts(trx, rows);
        tokenAccounts += rows.length;
      });
      await yieldToEventLoop();
    }
    done += READ_BATCH;
    if (progress && done % 50 === 0) await progress(Math.min(done, accounts.length), accounts.length);
  }
  return { markets, tokenAccounts };
}

/** The outcome mints the index knows, for filtering token-account notifications. */
export async function knownMints(ctx: FamilyBContext): Promise<Set<string>> {
  const mints = new Set<string>();
  for (const m of await listAllMints(ctx.db)) {
    mints.add(m.yesMint);
    mints.add(m.noMint);
  }
  return mints;
}

/**
 * Applies a token-account notification by re-reading the account: several changes can land in
 * one slot, and notifications of one slot carry no order, so the notified amount may already be
 * stale; what the chain holds now (at the read's slot) is never older than any notification.
 */
export async function applyTokenAccount(ctx: FamilyBContext, address: string): Promise<{ applied: true; closed?: true; slot?: number }> {
  const snapshot = await ctx.chain.getAccount(address);
  const row = snapshot ? decodeTokenAccountSnapshot(snapshot) : null;
  if (!row) {
    await deleteClosedTokenAccount(ctx.db, address, BigInt(snapshot?.slot ?? (await ctx.chain.getSlot())));
    return { applied: true, closed: true };
  }
  await upsertTokenAccounts(ctx.db, [row]);
  return { applied: true, slot: Number(row.slot) };
}
