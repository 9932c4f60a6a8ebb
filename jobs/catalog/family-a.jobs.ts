import { Type } from 'typebox';
import { defineJob } from './define-job.js';

/**
 * Family A's jobs. `family-a.money.sweep` refunds held payments whose wait is over, refunds
 * credits no claim can count, and removes expired unpaid creations (src/services/family-a/
 * money-sweep.service.ts). Every step is a compare-and-set, so a run twice or alongside a step 2
 * is harmless.
 */
export const familyAJobs = {
  'family-a.money.sweep': defineJob({
    queue: 'platform',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 0,
    keepFailed: 0,
  }),
  /** Finishes standard x402 payments left undecided and reports the fee payer's balance (x402-resume.service.ts). */
  'family-a.x402.resume': defineJob({
    queue: 'platform',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 0,
    keepFailed: 0,
  }),
};
