/**
 * Family C's change subscriptions, limited to what is ours: the exchange program's market
 * accounts and smart-wallet (UserEscrow) accounts (size + discriminator filters), one account
 * subscription per known smart wallet's USDC account, and one Token-program subscription per
 * orderbook outcome mint (mint at offset 0). New wallets and markets are watched as soon as
 * their account is first seen. Notifications are hints: the scheduled pass is the truth.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { listAllClobMarkets } from '../../../db/repositories/clob-markets.repository.js';
import { listClobWallets } from '../../../db/repositories/clob-wallets.repository.js';
import type { Unsubscribe } from '../../chain/chain-client.js';
import { decodeClobMarket } from '@pmx/programs';
import { isTokenAccountOfMint, tokenAccountsOfMintFilters } from '../token-account-index.js';
import type { FamilyCContext } from './context.js';
import { clobMarketAccountFilters } from './market-index.service.js';
import { escrowAccountFilters, escrowOwner } from './wallet-index.service.js';

export interface ClobIndexListeners {
  /** An orderbook market account changed (enqueue a refresh). */
  marketChanged(address: string): void;
  /** A smart wallet appeared (enqueue: remember it and index its USDC account). */
  walletSeen(owner: string): void;
  /** A watched token account changed (enqueue a re-read). */
  tokenAccountChanged(address: string): void;
}

export class ClobIndexSubscriptions {
  private readonly subscriptions = new Map<string, Unsubscribe>();

  constructor(
    private readonly ctx: FamilyCContext,
    private readonly listeners: ClobIndexListeners,
  ) {}

  /** What is watched (for tests and diagnostics): `account:<address>`, `mint:<mint>`, `program:…`. */
  get watched(): ReadonlySet<string> {
    return new Set(this.subscriptions.keys());
  }

  async start(): Promise<void> {
    const program = this.ctx.programId.toBase58();
    this.add('program:markets', () =>
      this.ctx.chain.onProgramAccountChange(
        program,
        (account) => {
          try {
            const m = decodeClobMarket(account.data);
            this.watchMint(m.yesMint.toBase58());
            this.watchMint(m.noMint.toBase58());
          } catch {
            return; // not a market after all
          }
          this.listeners.marketChanged(account.address);
        },
        clobMarketAccountFilters(),
      ),
    );
    this.add('program:escrows', () =>
      this.ctx.chain.onProgramAccountChange(
        program,
        (account) => {
          const owner = escrowOwner(account.data);
          if (owner) this.listeners.walletSeen(owner.toBase58());
        },
        escrowAccountFilters(),
      ),
    );
    for (const market of await listAllClobMarkets(this.ctx.db)) {
      this.watchMint(market.yes_mint!);
      this.watchMint(market.no_mint!);
    }
    for (let after = ''; ;) {
      const page = await listClobWallets(this.ctx.db, after, 500);
      if (page.length === 0) break;
      for (const w of page) this.watchAccount(w.escrowUsdc);
      after = page[page.length - 1]!.owner;
    }
  }

  /** Watches one token account (a smart wallet's USDC account), once. */
  watchAccount(address: string): void {
    this.add(`account:${address}`, () => this.ctx.chain.onAccountChange(address, () => this.listeners.tokenAccountChanged(address)));
  }

  watchMint(mint: string): void {
    const mintBytes = new PublicKey(mint).toBuffer();
    this.add(`mint:${mint}`, () =>
      this.ctx.chain.onProgramAccountChange(
        TOKEN_PROGRAM_ID.toBase58(),
        (account) => {
          // The filters already chose these; the check stays, on bytes: decoding the account (its
          // mint and owner in base58) for every changed token account of every landed settlement
          // was the index's largest cost before its job (issue 31's drain profile).
          if (isTokenAccountOfMint(account, mintBytes)) this.listeners.tokenAccountChanged(account.address);
        },
        tokenAccountsOfMintFilters(mint),
      ),
    );
  }

  private add(key: string, subscribe: () => Unsubscribe): void {
    if (!this.subscriptions.has(key)) this.subscriptions.set(key, subscribe());
  }

  stop(): void {
    for (const off of this.subscriptions.values()) off();
    this.subscriptions.clear();
  }
}
