/**
 * The messages the planner compiled when it sized each batch (with a placeholder blockhash),
 * kept until the batch's first build: compiling a v0 message costs about a millisecond, and the
 * first build follows the planning at once, on the same chain state. The builder still reads the
 * receipts first; a rebuild (after expiry, or in another process) compiles afresh. Reusing a
 * plan is always safe: a proof for an order that registered meanwhile is accepted (the account
 * keeps the same message), and lookup tables only grow. Memory only, bounded.
 */
import type { VersionedMessage } from '@solana/web3.js';

const MAX_PLANS = 1_000;

export class PlannedMessages {
  private readonly byBatch = new Map<string, VersionedMessage>();

  keep(batchId: string, message: VersionedMessage): void {
    if (this.byBatch.size >= MAX_PLANS) this.byBatch.delete(this.byBatch.keys().next().value!);
    this.byBatch.set(batchId, message);
  }

  /** The batch's planned message, once. */
  take(batchId: string): VersionedMessage | undefined {
    const message = this.byBatch.get(batchId);
    this.byBatch.delete(batchId);
    return message;
  }
}
