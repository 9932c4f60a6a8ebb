import { Type } from 'typebox';
import { defineJob } from './define-job.js';

export const TxBuildPayload = Type.Object({
  /** Which registered builder runs, e.g. "market.buy" (see the features' txBuilders). */
  kind: Type.String({ minLength: 1 }),
  params: Type.Record(Type.String(), Type.Unknown()),
});

export const systemJobs = {
  'system.heartbeat': defineJob({
    queue: 'system',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 0,
    keepFailed: 0,
  }),
  'tx.build': defineJob({
    queue: 'tx-build',
    payload: TxBuildPayload,
    // A request/reply job: the caller waits for it; a retry after the caller gave up is waste.
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 200,
    keepFailed: 500,
  }),
};
