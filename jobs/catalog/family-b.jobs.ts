import { Type } from 'typebox';
import { defineJob } from './define-job.js';

/**
 * Family B's index jobs. Notification-driven jobs get BullMQ's own unique ids: every change gets
 * its run (a slot-keyed id would swallow a second change in the same slot once the first job has
 * completed), and each run re-reads the chain, so a duplicate costs a read, never correctness.
 */
export const familyBJobs = {
  'index.markets.full': defineJob({
    queue: 'index',
    payload: Type.Object({ reason: Type.String() }),
    attempts: 3,
    backoffMs: 2_000,
    keepCompleted: 50,
    keepFailed: 200,
  }),
  'index.market.refresh': defineJob({
    queue: 'index',
    payload: Type.Object({ marketId: Type.String({ pattern: '^[0-9]+$' }), slot: Type.Integer({ minimum: 0 }) }),
    attempts: 5,
    backoffMs: 250,
    keepCompleted: 200,
    keepFailed: 500,
  }),
  'index.token-account.apply': defineJob({
    queue: 'index',
    payload: Type.Object({
      address: Type.String(),
      mint: Type.String(),
      owner: Type.String(),
      amount: Type.String({ pattern: '^[0-9]+$' }),
      slot: Type.Integer({ minimum: 0 }),
    }),
    attempts: 5,
    backoffMs: 250,
    keepCompleted: 200,
    keepFailed: 500,
  }),
  /** The keeper: sweep every market's protocol fees to the protocol fee wallet (outbound). */
  'market.protocol-fees.sweep': defineJob({
    queue: 'platform',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 0,
    keepFailed: 0,
  }),
};
