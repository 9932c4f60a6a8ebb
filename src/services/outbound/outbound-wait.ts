/**
 * Waiting for an outbound transaction from another process: the API polls the row (the system
 * of record) rather than the queue, so it works whichever node's worker runs the job. An intent
 * waiting for funds settles the wait too: it will not finish until an operator funds the wallet.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { findOutbound } from '../../../db/repositories/outbound-transactions.repository.js';
import { pollUntil } from '../../infra/poll.js';
import type { OutboundResult } from './outbound.types.js';

export async function awaitOutbound(db: Kysely<Database>, id: string, timeoutMs: number, maxPollMs = 50): Promise<OutboundResult> {
  const current = async (): Promise<OutboundResult> => {
    const row = await findOutbound(db, id);
    if (!row) throw new Error(`outbound transaction ${id} not found`);
    const awaitingFunds = row.awaiting_funds_since !== null && (row.status === 'pending' || row.status === 'sent');
    return { id, status: row.status, signature: row.signature, awaitingFunds, reason: row.last_error };
  };
  const settled = await pollUntil(
    async () => {
      const r = await current();
      return r.status === 'confirmed' || r.status === 'failed' || r.awaitingFunds ? r : undefined;
    },
    { timeoutMs, maxMs: maxPollMs },
  );
  return settled ?? current(); // still in flight: its current state
}
