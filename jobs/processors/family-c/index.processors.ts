/**
 * Family C's index processors. Idempotent: every write is an upsert guarded by slot, so a retried
 * or duplicated job leaves the same state.
 */
import { PublicKey } from '@solana/web3.js';
import type { FamilyCContext } from '../../../src/services/family-c/context.js';
import { indexAllClobMarkets, refreshClobMarketByPubkey, type MarketChange } from '../../../src/services/family-c/market-index.service.js';
import { indexSmartWallets, rememberWallet } from '../../../src/services/family-c/wallet-index.service.js';
import { indexTokenAccount, reindexTokenAccounts } from '../../../src/services/token-account-index.js';
import type { Processor } from '../../processor.js';

export interface ClobIndexHooks {
  /** A market's status changed on chain (the matcher cancels or freezes its book). */
  marketStatusChanged?(change: MarketChange): Promise<void>;
  /** A smart wallet's token account changed (its owner's uncovered orders are cancelled, then balance events). */
  tokenAccountIndexed?(address: string, owner: string | null): Promise<void>;
  /** Several owners' token accounts changed in one job: one reaction for all (else `tokenAccountIndexed` for each). */
  tokenAccountsIndexed?(changes: ReadonlyArray<{ address: string; owner: string | null }>): Promise<void>;
  /** The full pass re-read every smart wallet: cancel what no wallet covers any more (answers how many orders). */
  walletsIndexed?(): Promise<number>;
}

export function clobIndexFullProcessor(ctx: FamilyCContext, hooks: ClobIndexHooks = {}): Processor<'clob.index.full'> {
  return async ({ reason }, _job, log) => {
    const started = performance.now();
    const markets = await indexAllClobMarkets(ctx);
    for (const change of markets.changes) await hooks.marketStatusChanged?.(change);
    const wallets = await indexSmartWallets(ctx);
    const uncoveredCancelled = (await hooks.walletsIndexed?.()) ?? 0;
    const result = { markets: markets.markets, statusChanges: markets.changes.length, ...wallets, uncoveredCancelled };
    log.info({ reason, ...result, ms: Math.round(performance.now() - started) }, 'orderbook index pass done');
    return result;
  };
}

export function clobIndexMarketProcessor(ctx: FamilyCContext, hooks: ClobIndexHooks = {}): Processor<'clob.index.market'> {
  return async ({ address }) => {
    const change = await refreshClobMarketByPubkey(ctx, address);
    if (change) await hooks.marketStatusChanged?.(change);
    return { change };
  };
}

export function clobIndexWalletProcessor(ctx: FamilyCContext, hooks: ClobIndexHooks = {}): Processor<'clob.index.wallet'> {
  return async ({ owner }) => {
    const usdcAccount = await rememberWallet(ctx, new PublicKey(owner));
    const row = await indexTokenAccount(ctx.db, ctx.chain, usdcAccount);
    await hooks.tokenAccountIndexed?.(usdcAccount, row?.owner ?? null);
    return { usdcAccount, amount: row?.amount.toString() ?? null };
  };
}

/** Re-reads token accounts that changed, writes them in one transaction, then tells each owner once (all in one call when the hook takes them). */
export function clobIndexTokenAccountsProcessor(ctx: FamilyCContext, hooks: ClobIndexHooks = {}): Processor<'clob.index.token-accounts'> {
  return async ({ addresses }) => {
    const rows = await reindexTokenAccounts(ctx.db, ctx.chain, addresses);
    const owners = new Map<string | null, string>();
    for (const [i, row] of rows.entries()) if (!owners.has(row?.owner ?? null)) owners.set(row?.owner ?? null, addresses[i]!);
    const changes = [...owners].map(([owner, address]) => ({ address, owner }));
    if (hooks.tokenAccountsIndexed) await hooks.tokenAccountsIndexed(changes);
    else for (const { address, owner } of changes) await hooks.tokenAccountIndexed?.(address, owner);
    return { accounts: addresses.length, closed: rows.filter((r) => r === null).length, owners: owners.size };
  };
}
