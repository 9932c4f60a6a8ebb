import type { TransactionInstruction } from '@solana/web3.js';
import type { ChainError } from '../../chain/chain-errors.js';

/**
 * The contract between the generic outbound sender and the features that use it: a builder per
 * `purpose` turns the intent's params and a recent blockhash into signed wire bytes (deterministic
 * in what it moves, so a rebuild after expiry moves the same thing), and an optional hook runs
 * after confirmation (idempotent: it may run more than once).
 */
export interface OutboundBuildContext {
  outboundId: string;
  /** One of the transaction's instructions, unless the builder puts `outboundTag(outboundId)` in its own instruction's data (see outbound-memo.ts). */
  memo: TransactionInstruction;
}

export interface OutboundBuilder {
  build(params: unknown, recentBlockhash: string, context: OutboundBuildContext): Promise<Uint8Array>;
  onConfirmed?(params: unknown, signature: string): Promise<void>;
  /**
   * The node refused the bytes in preflight (a program error: nothing landed; `error.detail`
   * holds the err and the program logs). The builder may end the intent here by throwing
   * TerminalOutboundError when the refusal is final; otherwise the attempt fails and is retried.
   * Builders rely on this instead of simulating before they return: the send's preflight is the
   * same execution.
   */
  onRejected?(params: unknown, error: ChainError): Promise<void>;
}

export type OutboundBuilders = Record<string, OutboundBuilder>;

export interface OutboundResult {
  id: string;
  status: 'pending' | 'sent' | 'confirmed' | 'failed';
  signature: string | null;
  /** A platform wallet cannot cover it yet: it stays unfinished and is retried once funded. */
  awaitingFunds?: boolean;
  /** Why the last attempt did not finish it (the row's `last_error`), when known. */
  reason?: string | null;
}
