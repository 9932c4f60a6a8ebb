/**
 * The keeper sends the batches it planned together, and records them together:
 *   1. one fresh blockhash; each planned message signed with it (the tag names its outbound row);
 *   2. one database transaction: every batch, its fills' move to `settling`, and its outbound row
 *      with the built bytes (`sent`, first attempt counted) — nothing is sent before this commits;
 *   3. the sends, then one status read of every signature;
 *   4. the batches that landed: one database transaction (confirmBatches, their outbound rows
 *      marked confirmed in it); every other one is handed to its outbound job, which follows the
 *      stored bytes as for any outbound transaction (re-check, re-send, rebuild after expiry,
 *      a refusal set aside by the builder's onRejected).
 * From step 3 to the end of step 4 the token-account changes of the group's transactions wait
 * together (`holdAccountChanges`): the index re-reads them in one job and each owner's reaction
 * (coverage, `balance:update`, positions) runs once per group, not once per transaction.
 * A crash after step 2 leaves rows `sent` with their bytes: the resume scan (at once on start)
 * gives them their jobs. Per batch this saves the separate commits of planning, storing, marking
 * sent and confirming, and the job's round trips through Redis; on a cluster where transactions
 * take a while to land, step 4 hands nearly everything to the jobs, as before.
 */
import { randomUUID } from 'node:crypto';
import bs58 from 'bs58';
import { VersionedTransaction } from '@solana/web3.js';
import { recordGroup } from '../../../../db/repositories/clob-settle-record.repository.js';
import { statusFate } from '../../../chain/confirmation.js';
import { signAndSerialize } from '@pmx/programs';
import { namesOutbound } from '../../outbound/outbound-memo.js';
import { outboundIntentRows } from '../../outbound/outbound-intents.js';
import type { KeeperDeps } from './keeper.deps.js';
import type { BatchChoice } from './settle-choice.js';
import type { FillRow } from '../../../../db/repositories/clob-fills.repository.js';
import { announceRows, confirmBatches, type LandedBatch, type MarketMints } from './settle-outcomes.js';

export const CLOB_SETTLE = 'clob.settle';
export interface SettleParams {
  batchId: string;
  marketId: string;
}

export interface PlannedBatch {
  outboundId: string;
  choice: BatchChoice;
  /** The rows of `choice.fillIds` as the pass read them (matched): the `fill:settling` events are built from them. */
  rows: readonly FillRow[];
}

interface SignedBatch extends PlannedBatch {
  batchId: string;
  raw: Uint8Array;
  signature: string;
}

class TakenError extends Error {}

/** Sends planned batches of one market (see the module comment); false when a concurrent planner took their fills first. */
export async function sendPlannedBatches(k: KeeperDeps, market: MarketMints, planned: readonly PlannedBatch[]): Promise<boolean> {
  const marketId = market.id;
  const { blockhash, lastValidBlockHeight } = await k.c.chain.getLatestBlockhash('confirmed');
  const signed = planned.map((p): SignedBatch => {
    p.choice.message.recentBlockhash = blockhash;
    const transaction = new VersionedTransaction(p.choice.message);
    const raw = signAndSerialize(transaction, [k.c.operator]);
    if (!namesOutbound(raw, p.outboundId)) throw new Error(`settle batch for ${p.outboundId} does not name its outbound row`);
    return { ...p, batchId: randomUUID(), raw, signature: bs58.encode(transaction.signatures[0]!) };
  });
  const now = new Date().toISOString();
  const recorded = await k.c.db
    .transaction()
    .execute(async (trx) => {
      // One statement on PostgreSQL (the fills locked in id order first, db/row-locks.ts), the
      // statements one by one on SQLite: clob-settle-record.repository.ts.
      const moved = await recordGroup(
        trx,
        signed.map((b) => ({ id: b.batchId, marketId, outboundId: b.outboundId, fillIds: b.choice.fillIds, now })),
        outboundIntentRows(
          signed.map((b) => ({
            id: b.outboundId,
            idempotencyKey: `c-settle-${b.batchId}`,
            purpose: CLOB_SETTLE,
            params: { batchId: b.batchId, marketId } satisfies SettleParams,
            built: { signature: b.signature, rawTx: Buffer.from(b.raw).toString('base64'), blockhash, lastValidBlockHeight },
          })),
        ),
        now,
      );
      if (moved !== signed.reduce((n, b) => n + b.choice.fillIds.length, 0)) throw new TakenError();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof TakenError) return false;
      throw error;
    });
  if (!recorded) return false;
  k.c.metrics.fillTransitions.inc({ from: 'matched', to: 'settling' }, signed.flatMap((b) => b.choice.fillIds).length);
  for (const b of signed) k.proofsInFlight.add(b.batchId, b.choice.proves);

  try {
    await sendAndConfirm(k, market, signed, now);
  } catch (error) {
    // Whatever this pass did not finish, the outbound jobs finish (idempotent: a confirmed row only re-runs its hook).
    for (const b of signed) await k.c.dispatchOutbound(b.outboundId).catch(() => undefined);
    throw error;
  }
  return true;
}

async function sendAndConfirm(k: KeeperDeps, market: MarketMints, signed: readonly SignedBatch[], now: string): Promise<void> {
  // The group's token-account changes go to the index as one job once it is recorded (a hold only delays).
  const release = k.holdAccountChanges();
  try {
    await landGroup(k, market, signed, now);
  } finally {
    release();
  }
}

async function landGroup(k: KeeperDeps, market: MarketMints, signed: readonly SignedBatch[], now: string): Promise<void> {
  // fill:settling, from the rows the pass read and what the record changed in them (one read of them
  // a group fewer): the record moved every one of them from matched, or it would have thrown TakenError.
  const settling = signed.map((b) => b.rows.map((r): FillRow => ({ ...r, status: 'settling', batch_id: b.batchId, updated_at: now })));
  await announceRows(k, settling.flat());
  const sent: SignedBatch[] = [];
  const follow: SignedBatch[] = [];
  for (const b of signed) {
    try {
      await k.c.chain.sendRawTransaction(b.raw);
      sent.push(b);
    } catch (error) {
      // Refused in preflight, or a node hiccup: the outbound job re-sends the stored bytes and decides.
      k.log.debug(
        { outbound: b.outboundId, err: (error as Error).message },
        'settle batch not accepted at once; its outbound job follows it',
      );
      follow.push(b);
    }
  }
  const statuses = sent.length > 0 ? await k.c.chain.getSignatureStatuses(sent.map((b) => b.signature)) : [];
  const landed: LandedBatch[] = [];
  for (const [i, b] of sent.entries()) {
    const rows = settling[signed.indexOf(b)]!; // the confirmation's read of them, spared (its writes are guarded by status and batch)
    if (statusFate(statuses[i]) === 'ok') landed.push({ batchId: b.batchId, signature: b.signature, outboundId: b.outboundId, rows });
    else follow.push(b);
  }
  if (landed.length > 0) await confirmBatches(k, landed, 'confirmed', market);
  for (const b of follow) {
    await k.c
      .dispatchOutbound(b.outboundId)
      .catch((err: Error) => k.log.warn({ err, outboundId: b.outboundId }, 'enqueue failed; the resume scan will pick it up'));
  }
}
