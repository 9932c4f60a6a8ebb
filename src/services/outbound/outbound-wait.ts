/**
 * Waiting for an outbound transaction from another process: the API polls the row (the system
 * of record) rather than the queue, so it works whichever node's worker runs the job.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { findOutbound } from '../../../db/repositories/outbound-transactions.repository.js';
import type { OutboundResult } from './outbound.types.js';

export async function awaitOutbound(db: Kysely<Database>, id: string, timeoutMs: number, maxPollMs = 50): Promise<OutboundResult> {
  const deadline = Date.now() + timeoutMs;
  // Start fast (a delivery on a local cluster takes a few ms), back off to maxPollMs.
  let pollMs = 3;
  for (;;) {
    const row = await findOutbound(db, id);
    if (!row) throw new Error(`outbound transaction ${id} not found`);
    if (row.status === 'confirmed' || row.status === 'failed' || Date.now() >= deadline) {
      return { id, status: row.status, signature: row.signature };
    }
    await new Promise((r) => setTimeout(r, pollMs));
    pollMs = Math.min(maxPollMs, Math.ceil(pollMs * 1.5));
  }
}
