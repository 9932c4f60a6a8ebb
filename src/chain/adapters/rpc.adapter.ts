/**
 * ChainClient over any Solana cluster through @solana/web3.js v1. Reads and subscriptions use a
 * Connection; send and simulate go through a raw JSON-RPC call so the exact transaction error
 * (`{"InstructionError":[…]}`, `"BlockhashNotFound"`) reaches the ChainError, which web3.js's
 * SendTransactionError flattens into text. Transport failures retry with backoff.
 */
import { publicUrl } from '../public-url.js';
import { Connection, PublicKey, type Commitment as Web3Commitment } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Logger } from 'pino';
import type {
  AccountSnapshot,
  BlockhashWithExpiry,
  ChainClient,
  ChainTransaction,
  Commitment,
  ProgramAccountFilter,
  SignatureStatus,
  SimulationResult,
  TokenAccountSnapshot,
  Unsubscribe,
} from '../chain-client.js';
import { ChainError } from '../chain-errors.js';
import { codeForTransactionErr } from '../tx-error-codes.js';
import { parsedToChainTransaction, toAccountSnapshot } from './rpc-mapping.js';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './rpc-retry.js';

const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

export interface RpcAdapterOptions {
  rpcUrl: string;
  wsUrl?: string;
  commitment?: Commitment;
  logger?: Logger;
  retry?: RetryPolicy;
}

export class RpcChainClient implements ChainClient {
  readonly kind = 'rpc' as const;
  readonly cluster: string;
  readonly wsUrl: string;
  readonly connection: Connection;
  private readonly commitment: Commitment;
  private readonly retry: RetryPolicy;
  private rpcId = 0;

  constructor(private readonly opts: RpcAdapterOptions) {
    this.cluster = publicUrl(opts.rpcUrl); // shown in /v2/config and logs: no credentials
    this.commitment = opts.commitment ?? 'confirmed';
    this.retry = opts.retry ?? DEFAULT_RETRY;
    const url = new URL(opts.rpcUrl);
    if (!opts.wsUrl) {
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      if (url.port) url.port = String(Number(url.port) + 1);
    }
    this.wsUrl = opts.wsUrl ?? url.toString().replace(/\/$/, '');
    // web3.js's own 429 retry would hide rate limits from our backoff and logs.
    this.connection = new Connection(opts.rpcUrl, { commitment: this.commitment, wsEndpoint: this.wsUrl, disableRetryOnRateLimit: true });
  }

  private call<T>(fn: () => Promise<T>): Promise<T> {
    return withRetry(fn, this.retry);
  }

  async getAccount(address: string, commitment?: Commitment): Promise<AccountSnapshot | null> {
    const r = await this.call(() => this.connection.getAccountInfoAndContext(new PublicKey(address), commitment ?? this.commitment));
    return r.value ? toAccountSnapshot(address, r.value, r.context.slot) : null;
  }

  async getMultipleAccounts(addresses: string[], commitment?: Commitment): Promise<(AccountSnapshot | null)[]> {
    const r = await this.call(() =>
      this.connection.getMultipleAccountsInfoAndContext(
        addresses.map((a) => new PublicKey(a)),
        commitment ?? this.commitment,
      ),
    );
    return r.value.map((acc, i) => (acc ? toAccountSnapshot(addresses[i]!, acc, r.context.slot) : null));
  }

  async getProgramAccounts(programId: string, filters: ProgramAccountFilter[] = []): Promise<AccountSnapshot[]> {
    const r = await this.call(() =>
      this.connection.getProgramAccounts(new PublicKey(programId), {
        commitment: this.commitment,
        filters: filters as never,
        withContext: true,
      }),
    );
    return r.value.map((a) => toAccountSnapshot(a.pubkey.toBase58(), a.account, r.context.slot));
  }

  async getTokenAccountsByOwner(owner: string, filter: { mint?: string } = {}): Promise<TokenAccountSnapshot[]> {
    // The filter is built inside the call, so a malformed mint is classified (INVALID_PARAMS) like any other refusal.
    const r = await this.call(() => {
      const f = filter.mint ? { mint: new PublicKey(filter.mint) } : { programId: TOKEN_PROGRAM };
      return this.connection.getParsedTokenAccountsByOwner(new PublicKey(owner), f, this.commitment);
    });
    return r.value.map((a) => {
      const info = (a.account.data as { parsed: { info: { mint: string; owner: string; tokenAmount: { amount: string } } } }).parsed.info;
      return {
        address: a.pubkey.toBase58(),
        mint: info.mint,
        owner: info.owner,
        amount: BigInt(info.tokenAmount.amount),
        slot: r.context.slot,
      };
    });
  }

  async getLatestBlockhash(commitment?: Commitment): Promise<BlockhashWithExpiry> {
    return this.call(() => this.connection.getLatestBlockhash(commitment ?? this.commitment));
  }

  async isBlockhashValid(blockhash: string): Promise<boolean> {
    return (await this.call(() => this.connection.isBlockhashValid(blockhash, { commitment: this.commitment }))).value;
  }

  async sendRawTransaction(raw: Uint8Array): Promise<string> {
    const params = [Buffer.from(raw).toString('base64'), { encoding: 'base64', preflightCommitment: this.commitment, maxRetries: 0 }];
    try {
      return await this.call(() => this.rpc<string>('sendTransaction', params));
    } catch (e) {
      // A retry after a lost response finds the first attempt landed: that is success.
      if (e instanceof ChainError && e.code === 'ALREADY_PROCESSED') return bs58.encode(raw.subarray(1, 65));
      throw e;
    }
  }

  async getSignatureStatuses(signatures: string[]): Promise<(SignatureStatus | null)[]> {
    const r = await this.call(() => this.connection.getSignatureStatuses(signatures, { searchTransactionHistory: true }));
    return r.value.map((s) =>
      s ? { slot: s.slot, confirmations: s.confirmations, err: s.err, confirmationStatus: s.confirmationStatus ?? 'processed' } : null,
    );
  }

  async getTransaction(signature: string, commitment?: Commitment): Promise<ChainTransaction | null> {
    const c = (commitment === 'processed' ? 'confirmed' : (commitment ?? this.commitment)) as 'confirmed' | 'finalized';
    const tx = await this.call(() => this.connection.getParsedTransaction(signature, { commitment: c, maxSupportedTransactionVersion: 0 }));
    return tx ? parsedToChainTransaction(signature, tx) : null;
  }

  async simulateTransaction(raw: Uint8Array): Promise<SimulationResult> {
    const r = await this.call(() =>
      this.rpc<{ value: { err: unknown; logs: string[] | null; unitsConsumed?: number } }>('simulateTransaction', [
        Buffer.from(raw).toString('base64'),
        { encoding: 'base64', commitment: this.commitment, sigVerify: false },
      ]),
    );
    return { err: r.value.err ?? null, logs: r.value.logs ?? [], unitsConsumed: r.value.unitsConsumed ?? 0 };
  }

  async getSlot(commitment?: Commitment): Promise<number> {
    return this.call(() => this.connection.getSlot(commitment ?? this.commitment));
  }

  async getBlockHeight(commitment?: Commitment): Promise<number> {
    return this.call(() => this.connection.getBlockHeight(commitment ?? this.commitment));
  }

  async getMinimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    return BigInt(await this.call(() => this.connection.getMinimumBalanceForRentExemption(dataLength)));
  }

  onAccountChange(address: string, listener: (account: AccountSnapshot) => void): Unsubscribe {
    const id = this.connection.onAccountChange(new PublicKey(address), (acc, ctx) => listener(toAccountSnapshot(address, acc, ctx.slot)), {
      commitment: this.commitment as Web3Commitment,
    });
    return () => void this.connection.removeAccountChangeListener(id).catch(() => {});
  }

  onProgramAccountChange(
    programId: string,
    listener: (account: AccountSnapshot) => void,
    filters: ProgramAccountFilter[] = [],
  ): Unsubscribe {
    const id = this.connection.onProgramAccountChange(
      new PublicKey(programId),
      (a, ctx) => listener(toAccountSnapshot(a.accountId.toBase58(), a.accountInfo, ctx.slot)),
      { commitment: this.commitment as Web3Commitment, filters: filters as never },
    );
    return () => void this.connection.removeProgramAccountChangeListener(id).catch(() => {});
  }

  onSignature(signature: string, listener: (status: SignatureStatus) => void): Unsubscribe {
    const id = this.connection.onSignature(
      signature,
      (res, ctx) => listener({ slot: ctx.slot, confirmations: null, err: res.err, confirmationStatus: this.commitment }),
      this.commitment as Web3Commitment,
    );
    return () => void this.connection.removeSignatureListener(id).catch(() => {});
  }

  onSlot(listener: (slot: number) => void): Unsubscribe {
    const id = this.connection.onSlotChange((s) => listener(s.slot));
    return () => void this.connection.removeSlotChangeListener(id).catch(() => {});
  }

  async close(): Promise<void> {
    // Connection has no close(); subscriptions are removed by their Unsubscribe functions.
  }

  /** A raw JSON-RPC call that keeps the error object (code, message, data.err, data.logs). */
  private async rpc<T>(method: string, params: unknown[]): Promise<T> {
    const res = await fetch(this.opts.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.rpcId, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: { err?: unknown; logs?: string[] } } };
    if (!body.error) return body.result as T;
    const { code, message, data } = body.error;
    if (code === -32003) throw new ChainError('SIGNATURE_VERIFICATION_FAILED', message, body.error);
    if (code === -32005) throw new ChainError('NODE_UNAVAILABLE', message, body.error);
    if (data?.err !== undefined && data.err !== null)
      throw new ChainError(codeForTransactionErr(data.err), message, { err: data.err, logs: data.logs ?? [] });
    throw new ChainError('INVALID_TRANSACTION', message, body.error);
  }
}
