import { Type } from 'typebox';
import { PUBKEY_PATTERN } from '@pmx/programs';
import { defineJob } from './define-job.js';

const Address = Type.String({ pattern: PUBKEY_PATTERN });

/**
 * Family C's index jobs. Notification-driven jobs take BullMQ's own ids (every change gets its
 * run; each run re-reads the chain, so a duplicate costs a read, never correctness).
 */
export const familyCJobs = {
  /** The truth pass: every orderbook market account, smart wallet and outcome-token account. */
  'clob.index.full': defineJob({
    queue: 'index',
    payload: Type.Object({ reason: Type.String() }),
    attempts: 3,
    backoffMs: 2_000,
    keepCompleted: 50,
    keepFailed: 200,
  }),
  'clob.index.market': defineJob({
    queue: 'index',
    payload: Type.Object({ address: Address }),
    attempts: 5,
    backoffMs: 250,
    keepCompleted: 200,
    keepFailed: 500,
  }),
  /** A smart wallet appeared: remember it and index its USDC account. */
  'clob.index.wallet': defineJob({
    queue: 'index',
    payload: Type.Object({ owner: Address }),
    jobId: (p) => `clob-wallet-${p.owner}`,
    attempts: 5,
    backoffMs: 250,
    keepCompleted: 200,
    keepFailed: 500,
  }),
  /** Token accounts that changed, gathered over a few milliseconds (src/infra/coalescer.ts): one read and one write for all. */
  'clob.index.token-accounts': defineJob({
    queue: 'index',
    payload: Type.Object({ addresses: Type.Array(Address, { minItems: 1, maxItems: 100 }) }),
    attempts: 5,
    backoffMs: 250,
    keepCompleted: 200,
    keepFailed: 500,
  }),
  /** The keeper: put a market's matched fills into settlement batches (deduplicated per market). */
  'clob.settle.market': defineJob({
    queue: 'platform',
    payload: Type.Object({ marketId: Type.String({ minLength: 36, maxLength: 36 }) }),
    attempts: 3,
    backoffMs: 500,
    keepCompleted: 200,
    keepFailed: 500,
  }),
  /** The keeper's sweep: batches in flight against their transactions, markets whose fills wait. */
  'clob.settle.sweep': defineJob({
    queue: 'platform',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 0,
    keepFailed: 0,
  }),
  /** Positions and PnL from settled fills, and the splits, merges and redemptions found in smart wallets (deduplicated). */
  'clob.positions.apply': defineJob({
    queue: 'index',
    payload: Type.Object({ reason: Type.String() }),
    attempts: 3,
    backoffMs: 500,
    keepCompleted: 50,
    keepFailed: 200,
  }),
  /** Price candles from fills as they match, failed fills taken out again (candles.service.ts; deduplicated). */
  'clob.candles.apply': defineJob({
    queue: 'index',
    payload: Type.Object({ reason: Type.String() }),
    attempts: 3,
    backoffMs: 500,
    keepCompleted: 50,
    keepFailed: 200,
  }),
  /** The dead-man's switch: cancels the resting orders of owners whose heartbeat deadline passed (heartbeat.service.ts). */
  'clob.heartbeats.sweep': defineJob({
    queue: 'platform',
    payload: Type.Object({ scheduledBy: Type.String() }),
    attempts: 1,
    backoffMs: 0,
    keepCompleted: 20,
    keepFailed: 100,
  }),
};
