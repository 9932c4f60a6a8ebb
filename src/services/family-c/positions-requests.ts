/**
 * How a request for the positions job is queued (`clob.positions.apply`, positions.service.ts).
 * A landed settlement group asked for a run twice (the keeper's confirmation, then the index's
 * reaction to the balances it moved), and the job ran at once: about one run per group, each with
 * its fsync'd commit, its scan for settled fills to apply, its gap join and a BullMQ job's round
 * trips, in the keeper's process and on its database connection (issue 31: 128 runs for the 69
 * groups of a 2,016-fill drain).
 *
 * Now a request waits `POSITIONS_GATHER_MS` in the delayed set, and every request made meanwhile
 * is the same job (deduplicated by id until it ends): the groups that land in the window are
 * applied by one run. Nothing else changes: each fill is still applied exactly once, in a
 * transaction that claims it (`positions_applied`) and commits with fsync, and the scheduled run
 * (`CLOB_POSITIONS_INTERVAL_MS`) still catches what a request missed. Positions show a settlement
 * up to this much later.
 */
import type { JobsOptions } from 'bullmq';

export const POSITIONS_GATHER_MS = 500;

export const POSITIONS_REQUEST: JobsOptions = { deduplication: { id: 'clob-positions' }, delay: POSITIONS_GATHER_MS };
