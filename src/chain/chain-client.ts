/**
 * The chain port: the only interface through which services and jobs touch a Solana cluster.
 * Two adapters implement it: `rpc` (any cluster through @solana/web3.js) and `embedded`
 * (the in-process LiteSVM ledger). Amounts are bigint raw units; addresses are base58 strings.
 */
export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** An account as read at `slot`; indexers stamp rows with that slot. */
export interface AccountSnapshot {
  address: string;
  owner: string;
  lamports: bigint;
  data: Buffer;
  executable: boolean;
  slot: number;
}

export interface ProgramAccountFilter {
  dataSize?: number;
  /** `bytes` is base58, as in Solana JSON-RPC. */
  memcmp?: { offset: number; bytes: string };
}

/** An SPL token account, decoded. */
export interface TokenAccountSnapshot {
  address: string;
  mint: string;
  owner: string;
  amount: bigint;
  slot: number;
}

export interface BlockhashWithExpiry {
  blockhash: string;
  lastValidBlockHeight: number;
}

export interface SignatureStatus {
  slot: number;
  confirmations: number | null;
  err: unknown | null;
  confirmationStatus: Commitment;
}

/** One token account's balance before and after a transaction (meta.pre/postTokenBalances). */
export interface TokenBalanceDelta {
  accountIndex: number;
  account: string;
  mint: string;
  owner: string;
  pre: bigint;
  post: bigint;
}

/** One account's lamports before and after a transaction (meta.pre/postBalances). */
export interface LamportBalanceDelta {
  account: string;
  pre: bigint;
  post: bigint;
}

export interface ChainTransaction {
  signature: string;
  slot: number;
  blockTime: number | null;
  err: unknown | null;
  fee: number;
  logMessages: string[];
  /** Static account keys in message order; the first `signers.length` keys signed. */
  accountKeys: string[];
  signers: string[];
  tokenBalances: TokenBalanceDelta[];
  /** Every static account key's lamports, in message order (the fee is in the payer's delta). */
  lamportBalances: LamportBalanceDelta[];
}

export interface SimulationResult {
  err: unknown | null;
  logs: string[];
  unitsConsumed: number;
}

export type Unsubscribe = () => void;

export interface ChainClient {
  readonly kind: 'embedded' | 'rpc';
  /** Human name of the cluster: "embedded" or the RPC URL. */
  readonly cluster: string;

  /**
   * In-process chains only: a number that changes whenever any account may have changed (every
   * landed transaction, faucet write, slot's sysvars, restart), read synchronously. An answer made
   * from account reads started after reading it is current while it stands (src/chain/kept-answers.ts).
   * Absent on a remote cluster, whose accounts change unseen.
   */
  accountWriteVersion?(): number;

  getAccount(address: string, commitment?: Commitment): Promise<AccountSnapshot | null>;
  getMultipleAccounts(addresses: string[], commitment?: Commitment): Promise<(AccountSnapshot | null)[]>;
  getProgramAccounts(programId: string, filters?: ProgramAccountFilter[]): Promise<AccountSnapshot[]>;
  getTokenAccountsByOwner(owner: string, filter?: { mint?: string }): Promise<TokenAccountSnapshot[]>;
  getLatestBlockhash(commitment?: Commitment): Promise<BlockhashWithExpiry>;
  isBlockhashValid(blockhash: string): Promise<boolean>;
  /** Submits signed wire bytes; resolves with the first signature (base58). */
  sendRawTransaction(raw: Uint8Array): Promise<string>;
  getSignatureStatuses(signatures: string[]): Promise<(SignatureStatus | null)[]>;
  getTransaction(signature: string, commitment?: Commitment): Promise<ChainTransaction | null>;
  simulateTransaction(raw: Uint8Array): Promise<SimulationResult>;
  getSlot(commitment?: Commitment): Promise<number>;
  getBlockHeight(commitment?: Commitment): Promise<number>;
  getMinimumBalanceForRentExemption(dataLength: number): Promise<bigint>;

  /** Change notifications are hints: consumers must tolerate missed and duplicate events. */
  onAccountChange(address: string, listener: (account: AccountSnapshot) => void): Unsubscribe;
  /** `filters` narrow the subscription on the server (as in programSubscribe): all must match. */
  onProgramAccountChange(programId: string, listener: (account: AccountSnapshot) => void, filters?: ProgramAccountFilter[]): Unsubscribe;
  onSignature(signature: string, listener: (status: SignatureStatus) => void): Unsubscribe;
  onSlot(listener: (slot: number) => void): Unsubscribe;

  close(): Promise<void>;
}
