import { Type } from 'typebox';
import { defineJob } from './define-job.js';

/**
 * Family B's index jobs. Notification-driven jobs carry the slot in their id, so a burst of
 * notifications for one slot runs once while a later slot always gets its own run.
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
    jobId: (p) => `market-refresh-${p.marketId}-${p.slot}`,
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
    jobId: (p) => `token-account-${p.address}-${p.slot}`,
    keepCompleted: 200,
    keepFailed: 500,
  }),
};
