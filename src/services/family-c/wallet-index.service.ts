/**
 * Indexing the smart wallets: the escrow PDAs the exchange program holds (discovered from its
 * UserEscrow accounts), their USDC accounts, and the token accounts of every orderbook outcome
 * mint (only smart wallets hold those). Rows go to the shared token-account index, slot-guarded.
 * The scheduled pass is the truth; notifications (index-subscriptions.ts) make it fresh.
 */
import bs58 from 'bs58';
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { listAllClobMarkets } from '../../../db/repositories/clob-markets.repository.js';
import { listClobWallets, rememberClobWallet } from '../../../db/repositories/clob-wallets.repository.js';
import { deleteUnseenForMint, upsertTokenAccounts, type TokenAccountRow } from '../../../db/repositories/token-accounts.repository.js';
import type { ProgramAccountFilter } from '../../chain/chain-client.js';
import { timeSlicer } from '../../infra/time-slice.js';
import { decodeUserEscrow, EXCHANGE_ACCOUNT, USER_ESCROW_SIZE } from '@pmx/programs';
import { decodeTokenAccountSnapshot, indexTokenAccounts, tokenAccountsOfMintFilters } from '../token-account-index.js';
import type { FamilyCContext } from './context.js';
import { smartWalletAddresses } from './smart-wallet.service.js';

export function escrowAccountFilters(): ProgramAccountFilter[] {
  return [{ dataSize: USER_ESCROW_SIZE }, { memcmp: { offset: 0, bytes: bs58.encode(EXCHANGE_ACCOUNT.escrow) } }];
}

/** The owner named by a UserEscrow account's bytes, or null when they are not one. */
export function escrowOwner(data: Buffer): PublicKey | null {
  try {
    return decodeUserEscrow(data).owner;
  } catch {
    return null;
  }
}

/** Remembers the smart wallet of `owner` (idempotent) and returns its USDC account. */
export async function rememberWallet(ctx: FamilyCContext, owner: PublicKey): Promise<string> {
  const a = smartWalletAddresses(ctx, owner);
  await rememberClobWallet(
    ctx.db,
    { owner: owner.toBase58(), escrow: a.escrow.toBase58(), escrowUsdc: a.escrowUsdc.toBase58() },
    new Date().toISOString(),
  );
  return a.escrowUsdc.toBase58();
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface WalletPassResult {
  wallets: number;
  usdcAccounts: number;
  outcomeAccounts: number;
}

/** Discovers escrows on chain, re-reads every known escrow USDC account and every outcome mint's accounts. */
export async function indexSmartWallets(ctx: FamilyCContext): Promise<WalletPassResult> {
  const slice = timeSlicer(); // thousands of wallets: PDA derivations and inserts, in slices
  for (const account of await ctx.chain.getProgramAccounts(ctx.programId.toBase58(), escrowAccountFilters())) {
    const owner = escrowOwner(account.data);
    if (owner) await rememberWallet(ctx, owner);
    await slice();
  }
  let wallets = 0;
  let usdcAccounts = 0;
  for (let after = ''; ;) {
    const page = await listClobWallets(ctx.db, after, 100);
    if (page.length === 0) break;
    const slot = BigInt(await ctx.chain.getSlot());
    const addresses = page.map((w) => w.escrowUsdc);
    usdcAccounts += await indexTokenAccounts(ctx.db, addresses, await ctx.chain.getMultipleAccounts(addresses), slot);
    wallets += page.length;
    after = page[page.length - 1]!.owner;
    await yieldToEventLoop();
  }
  let outcomeAccounts = 0;
  for (const market of await listAllClobMarkets(ctx.db)) {
    if (market.status === 'creating') continue;
    for (const mint of [market.yes_mint!, market.no_mint!]) {
      const snapshots = await ctx.chain.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), tokenAccountsOfMintFilters(mint));
      const rows = snapshots.map(decodeTokenAccountSnapshot).filter((r): r is TokenAccountRow => r !== null);
      const slot = rows[0]?.slot ?? BigInt(await ctx.chain.getSlot());
      await ctx.db.transaction().execute(async (trx) => {
        await upsertTokenAccounts(trx, rows);
        await deleteUnseenForMint(
          trx,
          mint,
          rows.map((r) => r.address),
          slot,
        );
      });
      outcomeAccounts += rows.length;
    }
    await yieldToEventLoop();
  }
  return { wallets, usdcAccounts, outcomeAccounts };
}
