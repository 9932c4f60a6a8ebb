/**
 * The indexer's change subscriptions, limited to what is ours: the market program's market
 * accounts (size + discriminator filter), and per outcome mint one SPL Token subscription filtered
 * on the mint (dataSize 165 + memcmp at offset 0). Subscribing to the whole Token program works on the embedded cluster but no public
 * RPC allows it (every token transfer on the cluster would be streamed). A mint's subscription is
 * added when the market account is first seen (at start from the index, then on each market
 * notification). Notifications only make the index faster: the scheduled full pass is the truth,
 * so a change missed while a subscription was being added is picked up by the next pass.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { TokenAccountRow } from '../../../db/repositories/token-accounts.repository.js';
import type { Unsubscribe } from '../../chain/chain-client.js';
import { MARKET_ACCOUNT_OFFSETS, marketAccountFilters } from '@pmx/programs';
import type { FamilyBContext } from './context.js';
import { decodeTokenAccountSnapshot, tokenAccountsOfMintFilters } from '../token-account-index.js';
import { knownMints } from './market-index.service.js';
import { outcomeMints } from './market-reader.js';

export interface IndexListeners {
  /** A market account changed at `slot` (enqueue a refresh). */
  marketChanged(marketId: bigint, slot: number): void;
  /** A token account of one of our mints changed (enqueue an apply). */
  tokenAccountChanged(row: TokenAccountRow): void;
}

export class IndexSubscriptions {
  private readonly byMint = new Map<string, Unsubscribe>();
  private program: Unsubscribe | undefined;

  constructor(
    private readonly ctx: FamilyBContext,
    private readonly listeners: IndexListeners,
  ) {}

  /** The mints with a live subscription (for tests and diagnostics). */
  get mints(): ReadonlySet<string> {
    return new Set(this.byMint.keys());
  }

  async start(): Promise<void> {
    this.program = this.ctx.chain.onProgramAccountChange(
      this.ctx.programId.toBase58(),
      (account) => {
        const marketId = account.data.readBigUInt64LE(MARKET_ACCOUNT_OFFSETS.marketId);
        const { yesMint, noMint } = outcomeMints(marketId, this.ctx.programId);
        this.watchMint(yesMint.toBase58());
        this.watchMint(noMint.toBase58());
        this.listeners.marketChanged(marketId, account.slot);
      },
      marketAccountFilters(),
    );
    for (const mint of await knownMints(this.ctx)) this.watchMint(mint);
  }

  /** Subscribes to the token accounts of `mint` (once). */
  watchMint(mint: string): void {
    if (this.byMint.has(mint)) return;
    const off = this.ctx.chain.onProgramAccountChange(
      TOKEN_PROGRAM_ID.toBase58(),
      (account) => {
        const row = decodeTokenAccountSnapshot(account);
        if (row && row.mint === mint) this.listeners.tokenAccountChanged(row);
      },
      tokenAccountsOfMintFilters(mint),
    );
    this.byMint.set(mint, off);
  }

  stop(): void {
    this.program?.();
    this.program = undefined;
    for (const off of this.byMint.values()) off();
    this.byMint.clear();
  }
}
