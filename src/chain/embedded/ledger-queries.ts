/**
 * Read side of the embedded ledger: accounts, balances, token accounts, recorded transactions,
 * signature statuses and the clock. Everything here is synchronous and answers from current state.
 */
import { address as toAddress } from '@solana/kit';
import type { PublicKey } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import type { LedgerClock } from './ledger-clock.js';
import type { RuntimeAccount } from './program-runtime.js';
import { readAccount, toRuntimeAccount, type StoredAccount } from './svm-accounts.js';
import { decodeMint, decodeTokenAccount, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, type DecodedTokenAccount } from './token-balances.js';
import type { TransactionRecord, TransactionRecordStore } from './transaction-record.store.js';
import type { TransactionErr } from './tx-errors.js';

export interface LedgerSignatureStatus {
  slot: number;
  confirmations: number | null;
  err: TransactionErr | null;
  confirmationStatus: 'finalized';
}

export type KeyLike = PublicKey | string;
const b58 = (k: KeyLike): string => (typeof k === 'string' ? k : k.toBase58());

export class LedgerQueries {
  protected constructor(
    protected svm: LiteSVM,
    protected readonly store: TransactionRecordStore,
    protected readonly clock: LedgerClock,
  ) {}

  get slot(): number {
    return this.clock.slot;
  }

  get blockHeight(): number {
    return this.clock.blockHeight;
  }

  /** The cluster clock's unix time in seconds (wall time plus warpTime offset). */
  get unixTimestamp(): number {
    return this.clock.unixTimestamp();
  }

  /** The hash of block 0, stable for the life of the ledger's data dir. */
  get genesisHash(): string {
    return this.clock.blockhashAt(0);
  }

  getLatestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    return this.clock.latest();
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.clock.isValid(blockhash);
  }

  getAccount(pubkey: KeyLike): RuntimeAccount | null {
    return toRuntimeAccount(readAccount(this.svm, b58(pubkey)));
  }

  getStoredAccount(pubkey: KeyLike): StoredAccount | null {
    return readAccount(this.svm, b58(pubkey));
  }

  getBalance(pubkey: KeyLike): bigint {
    return readAccount(this.svm, b58(pubkey))?.lamports ?? 0n;
  }

  getProgramAccounts(programId: KeyLike): { address: string; account: StoredAccount }[] {
    return this.svm
      .getProgramAccounts(toAddress(b58(programId)))
      .filter((a) => a.lamports > 0n || a.data.length > 0)
      .map((a) => ({ address: a.address, account: { owner: a.programAddress, lamports: a.lamports, data: a.data as Uint8Array, executable: a.executable } }));
  }

  /** Token accounts owned by `owner` (SPL Token and Token-2022), optionally for one mint. */
  getTokenAccountsByOwner(owner: KeyLike, filter: { mint?: string; programId?: string } = {}): { address: string; account: StoredAccount; token: DecodedTokenAccount }[] {
    const programs = filter.programId ? [filter.programId] : [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];
    const o = b58(owner);
    const out: { address: string; account: StoredAccount; token: DecodedTokenAccount }[] = [];
    for (const program of programs) {
      for (const { address, account } of this.getProgramAccounts(program)) {
        const token = decodeTokenAccount(account);
        if (token && token.owner === o && (!filter.mint || token.mint === filter.mint)) out.push({ address, account, token });
      }
    }
    return out;
  }

  /** Raw token amount of a token account (0n when missing). */
  getTokenBalance(tokenAccount: KeyLike): bigint {
    return decodeTokenAccount(readAccount(this.svm, b58(tokenAccount)))?.amount ?? 0n;
  }

  getTokenSupply(mint: KeyLike): { supply: bigint; decimals: number } | null {
    const m = decodeMint(readAccount(this.svm, b58(mint)));
    return m ? { supply: m.supply, decimals: m.decimals } : null;
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  /** Landed transactions since genesis (failed ones included, as on a real cluster). */
  get transactionCount(): number {
    return this.store.transactionCount();
  }

  getTransaction(signature: string): TransactionRecord | null {
    return this.store.get(signature);
  }

  getSignatureStatus(signature: string): LedgerSignatureStatus | null {
    const rec = this.store.get(signature);
    return rec ? { slot: rec.slot, confirmations: null, err: rec.err, confirmationStatus: 'finalized' } : null;
  }

  getSignaturesForAddress(address: KeyLike, opts: { limit?: number; before?: string; until?: string } = {}) {
    return this.store.signaturesForAddress(b58(address), { limit: Math.min(opts.limit ?? 1000, 1000), before: opts.before, until: opts.until });
  }
}
