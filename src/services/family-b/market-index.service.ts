/**
 * Family B's indexer: copies market accounts and the token accounts of their outcome mints into
 * the database, each row stamped with the slot it was read at (older reads never overwrite newer
 * rows). The full pass is the truth; change notifications only make it faster.
 */
import { AccountLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import bs58 from 'bs58';
import { listAllMints } from '../../../db/repositories/chain-markets.repository.js';
import { deleteClosedTokenAccount, deleteUnseenForMint, upsertTokenAccounts, type TokenAccountRow } from '../../../db/repositories/token-accounts.repository.js';
import type { AccountSnapshot, ProgramAccountFilter } from '../../chain/chain-client.js';
import { MARKET_ACCOUNT_DISCRIMINATOR, MARKET_ACCOUNT_SIZE } from '../../chain/programs/market/index.js';
import type { FamilyBContext } from './context.js';
import { indexLoadedMarket, readMarketFromChain, type LoadedMarket } from './market-reader.js';

const TOKEN_ACCOUNT_SIZE = AccountLayout.span;

/** The market program's market accounts (not its config or other accounts). */
export function marketAccountFilters(): ProgramAccountFilter[] {
  return [{ dataSize: MARKET_ACCOUNT_SIZE }, { memcmp: { offset: 0, bytes: bs58.encode(MARKET_ACCOUNT_DISCRIMINATOR) } }];
}

/**
 * The token accounts of one mint, as a getProgramAccounts / programSubscribe filter on the SPL
 * Token program: the 165-byte account layout, the mint at offset 0.
 */
export function mintTokenAccountFilters(mint: string): ProgramAccountFilter[] {
  return [{ dataSize: TOKEN_ACCOUNT_SIZE }, { memcmp: { offset: 0, bytes: mint } }];
}

export function decodeTokenAccount(snapshot: AccountSnapshot): TokenAccountRow | null {
  if (snapshot.owner !== TOKEN_PROGRAM_ID.toBase58() || snapshot.data.length !== TOKEN_ACCOUNT_SIZE) return null;
  const t = AccountLayout.decode(snapshot.data);
  return { address: snapshot.address, mint: t.mint.toBase58(), owner: t.owner.toBase58(), amount: t.amount, slot: BigInt(snapshot.slot) };
}

/** All token accounts of one mint, as of one read. */
async function indexMint(ctx: FamilyBContext, mint: string): Promise<number> {
  const accounts = await ctx.chain.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), mintTokenAccountFilters(mint));
  const rows = accounts.map(decodeTokenAccount).filter((r): r is TokenAccountRow => r !== null);
  await upsertTokenAccounts(ctx.db, rows);
  const slot = rows.length > 0 ? rows[0]!.slot : BigInt(await ctx.chain.getSlot());
  await deleteUnseenForMint(ctx.db, mint, rows.map((r) => r.address), slot);
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

/**
 * The token accounts of `mints`, grouped by mint. On the embedded cluster one scan of the token
 * accounts serves the whole pass (O(accounts)); on a real cluster the Token program is far too big
 * to list, so each mint is asked with a server-side filter (O(markets) calls, each small).
 */
async function tokenAccountsByMint(ctx: FamilyBContext, mints: string[]): Promise<Map<string, TokenAccountRow[]>> {
  const byMint = new Map<string, TokenAccountRow[]>(mints.map((m) => [m, []]));
  if (ctx.chain.cluster === 'embedded') {
    for (const snapshot of await ctx.chain.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), [{ dataSize: TOKEN_ACCOUNT_SIZE }])) {
      const row = decodeTokenAccount(snapshot);
      if (row) byMint.get(row.mint)?.push(row);
    }
    return byMint;
  }
  for (const mint of mints) {
    const accounts = await ctx.chain.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), mintTokenAccountFilters(mint));
    byMint.set(mint, accounts.map(decodeTokenAccount).filter((r): r is TokenAccountRow => r !== null));
  }
  return byMint;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rebuilds the index from the chain: every market account, then its mints' token accounts, read
 * once for the whole pass (a pass used to read every token account twice per market: quadratic).
 * Yields to the event loop between markets so that requests keep being answered during a pass.
 */
export async function fullIndexPass(ctx: FamilyBContext, progress?: (done: number, total: number) => Promise<void>): Promise<FullPassResult> {
  const accounts = await ctx.chain.getProgramAccounts(ctx.programId.toBase58(), marketAccountFilters());
  const markets: LoadedMarket[] = [];
  for (const account of accounts) {
    const market = await readMarketFromChain(ctx, account.data.readBigUInt64LE(8));
    if (market) markets.push(market);
  }
  const live = markets.filter((m) => m.account.mintsInitialized);
  const byMint = await tokenAccountsByMint(ctx, live.flatMap((m) => [m.yesMint.toBase58(), m.noMint.toBase58()]));
  const slot = BigInt(await ctx.chain.getSlot());
  let tokenAccounts = 0;
  // 25 markets per database transaction: one commit (one fsync) each instead of one per row,
  // then a turn of the event loop for the requests waiting meanwhile.
  for (let start = 0; start < markets.length; start += 25) {
    await ctx.db.transaction().execute(async (trx) => {
      for (const market of markets.slice(start, start + 25)) {
        await indexLoadedMarket(trx, market);
        if (!market.account.mintsInitialized) continue;
        for (const mint of [market.yesMint.toBase58(), market.noMint.toBase58()]) {
          const rows = byMint.get(mint) ?? [];
          await upsertTokenAccounts(trx, rows);
          await deleteUnseenForMint(trx, mint, rows.map((r) => r.address), rows[0]?.slot ?? slot);
          tokenAccounts += rows.length;
        }
      }
    });
    await yieldToEventLoop();
    const done = Math.min(start + 25, markets.length);
    if (progress && done % 50 === 0) await progress(done, markets.length);
  }
  return { markets: markets.length, tokenAccounts };
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
  const row = snapshot ? decodeTokenAccount(snapshot) : null;
  if (!row) {
    await deleteClosedTokenAccount(ctx.db, address, BigInt(snapshot?.slot ?? (await ctx.chain.getSlot())));
    return { applied: true, closed: true };
  }
  await upsertTokenAccounts(ctx.db, [row]);
  return { applied: true, slot: Number(row.slot) };
}
