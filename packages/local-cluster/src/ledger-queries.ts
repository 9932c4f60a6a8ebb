/**
 * Read side of the embedded ledger: accounts, balances, token accounts, recorded transactions,
 * signature statuses and the clock. Everything here is synchronous and answers from current state.
 */
import type { PublicKey } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { AccountIndex } from './account-index.js';
import type { LedgerClock } from './ledger-clock.js';
import type { RuntimeAccount } from './program-runtime.js';
import { RecentSignatures } from './recent-signatures.js';
import { matchesCompiled, type CompiledFilter } from './rpc-params.js';
import { readAccount, toRuntimeAccount, type StoredAccount } from './svm-accounts.js';
import { addressBytes, addressText, native } from './svm-raw.js';
import type { DecodedTokenAccount } from '@pmx/programs';
import { decodeMint, isTokenProgram, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, tokenAccountOf } from './token-balances.js';
import type { TransactionRecord, TransactionRecordStore } from './transaction-record.store.js';
import type { TransactionErr } from './tx-errors.js';
import { accountWriteVersion } from './write-version.js';

export interface LedgerSignatureStatus {
  slot: number;
  confirmations: number | null;
  err: TransactionErr | null;
  confirmationStatus: 'finalized';
}

export type KeyLike = PublicKey | string;
const b58 = (k: KeyLike): string => (typeof k === 'string' ? k : k.toBase58());

export interface ProgramAccount {
  address: string;
  account: StoredAccount;
}

/** The 32 bytes a memcmp filter pins at `offset`, as an address, if it pins exactly that. */
function pinnedKey(filters: readonly CompiledFilter[], offset: number): string | undefined {
  const f = filters.find((x) => x.memcmp?.offset === offset && x.memcmp.bytes.length === 32);
  return f ? addressText(f.memcmp!.bytes) : undefined;
}

export class LedgerQueries {
  /** Accounts by owning program, token accounts by mint and owner (see account-index.ts). */
  protected readonly index: AccountIndex;
  /** Transactions committed within the blockhash window (recent-signatures.ts). */
  protected readonly recent: RecentSignatures;

  protected constructor(
    protected svm: LiteSVM,
    protected readonly store: TransactionRecordStore,
    protected readonly clock: LedgerClock,
  ) {
    this.index = new AccountIndex(() => this.svm);
    this.recent = new RecentSignatures(store, clock.slot);
  }

  /** Changes with every account write (write-version.ts): in-process readers key kept answers by it. */
  get accountWriteVersion(): number {
    return accountWriteVersion(this.svm);
  }

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

  /**
   * Every account of `programId` that matches `filters`, in one synchronous call. Indexed
   * programs visit only their own accounts (a token mint or owner filter only that mint's or
   * owner's token accounts); callers that may get many should read `programAccountCandidates`
   * in slices instead (program-accounts.ts).
   */
  getProgramAccounts(programId: KeyLike, filters: readonly CompiledFilter[] = []): ProgramAccount[] {
    const program = b58(programId);
    const candidates = this.programAccountCandidates(program, filters);
    if (candidates) return this.readProgramAccounts(program, candidates, filters);
    const out: ProgramAccount[] = [];
    for (const found of native(this.svm).getProgramAccounts(addressBytes(program))) {
      const acc = found.account();
      const data = acc.data();
      if (acc.lamports() === 0n && data.length === 0) continue;
      if (!matchesCompiled(data, filters)) continue;
      out.push({
        address: addressText(found.address),
        account: { owner: program, lamports: acc.lamports(), data, executable: acc.executable() },
      });
    }
    return out;
  }

  /**
   * Addresses that can match a getProgramAccounts query, from the index: null when the program is
   * not indexed (a scan is then the only way). A superset: read them with `readProgramAccounts`.
   */
  programAccountCandidates(programId: KeyLike, filters: readonly CompiledFilter[] = []): string[] | null {
    const program = b58(programId);
    if (isTokenProgram(program) && this.index.isIndexed(program)) {
      const mint = pinnedKey(filters, 0);
      if (mint) return this.index.tokenAccountsOfMint(mint);
      const owner = pinnedKey(filters, 32);
      if (owner) return this.index.tokenAccountsOfOwner(owner);
    }
    return this.index.ownedBy(program);
  }

  /** The accounts among `addresses` that exist now, belong to `programId` and match `filters`. */
  readProgramAccounts(programId: KeyLike, addresses: readonly string[], filters: readonly CompiledFilter[] = []): ProgramAccount[] {
    const program = b58(programId);
    const out: ProgramAccount[] = [];
    for (const address of addresses) {
      const account = readAccount(this.svm, address);
      if (account && account.owner === program && matchesCompiled(account.data, filters)) out.push({ address, account });
    }
    return out;
  }

  /** Token accounts owned by `owner` (SPL Token and Token-2022), optionally for one mint. */
  getTokenAccountsByOwner(
    owner: KeyLike,
    filter: { mint?: string; programId?: string } = {},
  ): { address: string; account: StoredAccount; token: DecodedTokenAccount }[] {
    const programs = filter.programId ? [filter.programId] : [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];
    const o = b58(owner);
    let ownerBytes: Uint8Array;
    try {
      ownerBytes = addressBytes(o);
    } catch {
      return []; // not an address: it owns nothing
    }
    const byOwner: CompiledFilter[] = [{ memcmp: { offset: 32, bytes: ownerBytes } }];
    const out: { address: string; account: StoredAccount; token: DecodedTokenAccount }[] = [];
    for (const program of programs) {
      for (const { address, account } of this.getProgramAccounts(program, byOwner)) {
        const token = tokenAccountOf(account);
        if (token && token.owner === o && (!filter.mint || token.mint === filter.mint)) out.push({ address, account, token });
      }
    }
    return out;
  }

  /** Raw token amount of a token account (0n when missing). */
  getTokenBalance(tokenAccount: KeyLike): bigint {
    return tokenAccountOf(readAccount(this.svm, b58(tokenAccount)))?.amount ?? 0n;
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
    const st = this.recent.get(signature) ?? this.store.status(signature);
    return st ? { slot: st.slot, confirmations: null, err: st.err, confirmationStatus: 'finalized' } : null;
  }

  getSignaturesForAddress(address: KeyLike, opts: { limit?: number; before?: string; until?: string } = {}) {
    return this.store.signaturesForAddress(b58(address), {
      limit: Math.min(opts.limit ?? 1000, 1000),
      before: opts.before,
      until: opts.until,
    });
  }
}
