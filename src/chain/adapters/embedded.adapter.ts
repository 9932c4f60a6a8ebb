/**
 * ChainClient over the in-process EmbeddedLedger: direct calls, no serialization, notifications
 * from the ledger's event emitter. Sends preflight like a node's default sendTransaction, so a
 * program failure throws PROGRAM_ERROR here exactly as through the rpc adapter.
 */
import type {
  AccountSnapshot,
  BlockhashWithExpiry,
  ChainClient,
  ChainTransaction,
  ProgramAccountFilter,
  SignatureStatus,
  SimulationResult,
  TokenAccountSnapshot,
  Unsubscribe,
} from '../chain-client.js';
import { type EmbeddedLedger, programAccountsSliced, type StoredAccount, type TransactionRecord } from '@pmx/local-cluster';
import { compileFilters } from './account-filters.js';
import { AccountRoutes } from './account-routes.js';
import { viaLedger } from './ledger-errors.js';
import { turnSlice } from '../../infra/time-slice.js';

export function toSnapshot(address: string, acc: StoredAccount, slot: number): AccountSnapshot {
  return { address, owner: acc.owner, lamports: acc.lamports, data: Buffer.from(acc.data), executable: acc.executable, slot };
}

/** For accounts just read from the ledger (their bytes are a fresh copy no one else holds): no second copy. */
function freshSnapshot(address: string, acc: StoredAccount, slot: number): AccountSnapshot {
  return {
    address,
    owner: acc.owner,
    lamports: acc.lamports,
    data: Buffer.from(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength),
    executable: acc.executable,
    slot,
  };
}

export function recordToChainTransaction(rec: TransactionRecord): ChainTransaction {
  const pre = new Map(rec.preTokenBalances.map((t) => [t.accountIndex, t]));
  const post = new Map(rec.postTokenBalances.map((t) => [t.accountIndex, t]));
  const indexes = [...new Set([...pre.keys(), ...post.keys()])].sort((a, b) => a - b);
  return {
    signature: rec.signature,
    slot: rec.slot,
    blockTime: rec.blockTime,
    err: rec.err,
    fee: Number(rec.fee),
    logMessages: rec.logs,
    accountKeys: rec.accountKeys,
    signers: rec.signers,
    lamportBalances: rec.accountKeys.map((account, i) => ({ account, pre: rec.preBalances[i] ?? 0n, post: rec.postBalances[i] ?? 0n })),
    tokenBalances: indexes.map((i) => {
      const t = (post.get(i) ?? pre.get(i))!;
      return {
        accountIndex: i,
        account: rec.accountKeys[i]!,
        mint: t.mint,
        owner: t.owner,
        pre: pre.get(i)?.amount ?? 0n,
        post: post.get(i)?.amount ?? 0n,
      };
    }),
  };
}

export class EmbeddedChainClient implements ChainClient {
  readonly kind = 'embedded' as const;
  readonly cluster = 'embedded';

  /** One ledger listener for every account subscription of this client (account-routes.ts). */
  private readonly accounts: AccountRoutes;

  constructor(readonly ledger: EmbeddedLedger) {
    this.accounts = new AccountRoutes((fn) => this.on('account', fn));
  }

  accountWriteVersion(): number {
    return this.ledger.accountWriteVersion;
  }

  async getAccount(address: string): Promise<AccountSnapshot | null> {
    const acc = this.ledger.getStoredAccount(address);
    return acc ? freshSnapshot(address, acc, this.ledger.slot) : null;
  }

  async getMultipleAccounts(addresses: string[]): Promise<(AccountSnapshot | null)[]> {
    return Promise.all(addresses.map((a) => this.getAccount(a)));
  }

  /** Read in slices from the ledger's index: a big program never holds the event loop. */
  async getProgramAccounts(programId: string, filters: ProgramAccountFilter[] = []): Promise<AccountSnapshot[]> {
    const { accounts, slot } = await programAccountsSliced(this.ledger, programId, compileFilters(filters));
    return accounts.map((a) => freshSnapshot(a.address, a.account, slot));
  }

  async getTokenAccountsByOwner(owner: string, filter: { mint?: string } = {}): Promise<TokenAccountSnapshot[]> {
    const slot = this.ledger.slot;
    return this.ledger
      .getTokenAccountsByOwner(owner, filter)
      .map((t) => ({ address: t.address, mint: t.token.mint, owner: t.token.owner, amount: t.token.amount, slot }));
  }

  async getLatestBlockhash(): Promise<BlockhashWithExpiry> {
    return this.ledger.getLatestBlockhash();
  }

  async isBlockhashValid(blockhash: string): Promise<boolean> {
    return this.ledger.isBlockhashValid(blockhash);
  }

  async sendRawTransaction(raw: Uint8Array): Promise<string> {
    // The ledger executes and records synchronously: a keeper sending many in a row yields a turn every 5 ms.
    const turn = turnSlice();
    if (turn) await turn;
    return (await viaLedger(() => this.ledger.sendRawTransaction(raw, { preflight: true }))).signature;
  }

  async getSignatureStatuses(signatures: string[]): Promise<(SignatureStatus | null)[]> {
    return signatures.map((s) => this.ledger.getSignatureStatus(s));
  }

  async getTransaction(signature: string): Promise<ChainTransaction | null> {
    const rec = this.ledger.getTransaction(signature);
    return rec ? recordToChainTransaction(rec) : null;
  }

  async simulateTransaction(raw: Uint8Array): Promise<SimulationResult> {
    return viaLedger(() => this.ledger.simulateTransaction(raw, { sigVerify: false, replaceRecentBlockhash: false }));
  }

  async getSlot(): Promise<number> {
    return this.ledger.slot;
  }

  async getBlockHeight(): Promise<number> {
    return this.ledger.blockHeight;
  }

  async getMinimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    return this.ledger.minimumBalanceForRentExemption(dataLength);
  }

  onAccountChange(address: string, listener: (account: AccountSnapshot) => void): Unsubscribe {
    return this.accounts.account(address, (a, account, slot) => listener(toSnapshot(a, account, slot)));
  }

  onProgramAccountChange(
    programId: string,
    listener: (account: AccountSnapshot) => void,
    filters: ProgramAccountFilter[] = [],
  ): Unsubscribe {
    return this.accounts.program(programId, compileFilters(filters), (a, account, slot) => listener(toSnapshot(a, account, slot)));
  }

  onSignature(signature: string, listener: (status: SignatureStatus) => void): Unsubscribe {
    const existing = this.ledger.getSignatureStatus(signature);
    if (existing) {
      queueMicrotask(() => listener(existing));
      return () => {};
    }
    const off = this.on('transaction', (rec: TransactionRecord) => {
      if (rec.signature !== signature) return;
      off();
      listener({ slot: rec.slot, confirmations: null, err: rec.err, confirmationStatus: 'finalized' });
    });
    return off;
  }

  onSlot(listener: (slot: number) => void): Unsubscribe {
    return this.on('slot', listener);
  }

  async close(): Promise<void> {
    // The ledger belongs to whoever opened it (createChain closes it).
  }

  private on<T>(event: string, fn: (e: T) => void): Unsubscribe {
    this.ledger.events.on(event, fn);
    return () => this.ledger.events.off(event, fn);
  }
}
