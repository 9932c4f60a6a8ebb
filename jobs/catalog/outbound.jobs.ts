/**
 * Jobs of the shared outbound-transaction mechanism (src/services/outbound): `outbound.send`
 * drives one persisted platform transaction to confirmation (Family A deliveries, payments and
 * payouts, market setup; Family B protocol-fee sweeps; later Family C settlements);
 * `outbound.resume` re-enqueues unfinished ones, so a daemon killed at any point finishes them
 * after restart.
 */
import { Type } from 'typebox';
import { defineJob } from './define-job.js';

export const outboundJobs = {
  'outbound.send': defineJob({
    queue: 'platform',
    payload: Type.Object({ outboundId: Type.String({ minLength: 1 }) }),
    // Each attempt re-sends the same bytes until their blockhash expires, then rebuilds; the row
    // (not the job) is the state, so many attempts are cheap and safe.
    attempts: 12,
    backoffMs: 500,
    keepCompleted: 500,
    keepFailed: 2000,
  }),
  'outbound.resume': defineJob({
    queue: 'platform',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 0,
    keepFailed: 0,
  }),
};
