/**
 * Drives one persisted outbound transaction to confirmation, safely under retries, duplicates
 * and crashes:
 *   1. confirmed already → run the (idempotent) hook, done;
 *   2. built bytes exist → read the block height FIRST, then the signature status: landed →
 *      confirm; not landed and height ≤ lastValidBlockHeight → re-send the same bytes; not landed
 *      and expired → it can never land (anything landing did so before our height read), so
 *      rebuild;
 *   3. (re)build with a fresh blockhash, persist the bytes (status `sent`) with a compare-and-set on
 *      the previous signature BEFORE sending (a concurrent worker loses the race and waits
 *      instead), send;
 *   4. wait for `confirmed` or better; on timeout throw so the job retries (step 2 again).
 * A failed attempt keeps its reason on the row (`last_error`). Builders decide two special cases
 * (outbound-errors.ts): a platform wallet that cannot cover the transfer yet (waits for funds with
 * a backoff, without using the attempt budget), and an intent that can never succeed (fails at
 * once with its reason).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import bs58 from 'bs58';
import type { Database } from '../../../db/schema.js';
import {
  findOutbound,
  markAwaitingFunds,
  markOutbound,
  noteOutboundError,
  storeBuilt,
  type OutboundRow,
} from '../../../db/repositories/outbound-transactions.repository.js';
import { awaitSignature, statusFate } from '../../chain/confirmation.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { ChainError, type ChainErrorCode } from '../../chain/chain-errors.js';
import { AwaitingFundsError, fundingBackoffMs, TerminalOutboundError } from './outbound-errors.js';
import { namesOutbound, outboundMemoInstruction } from './outbound-memo.js';
import type { OutboundBuilder, OutboundBuilders, OutboundResult } from './outbound.types.js';

/** Preflight verdicts that mean these bytes did not land now (they may later, until expiry). */
const REJECTED: ReadonlySet<ChainErrorCode> = new Set([
  'PROGRAM_ERROR',
  'INSUFFICIENT_FUNDS',
  'ACCOUNT_NOT_FOUND',
  'INVALID_TRANSACTION',
  'SIGNATURE_VERIFICATION_FAILED',
]);

export interface OutboundSenderOptions {
  confirmTimeoutMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  /** Delay before the n-th funding check (default: 5 s doubling to 5 min). */
  fundingBackoffMs?: (checks: number) => number;
  /**
   * Aborted when the daemon stops: a confirmation wait ends at once and the attempt is left to a
   * later job (the row keeps its bytes; the resume scan picks it up after a restart), so the
   * workers' close does not wait out confirmTimeoutMs, which is longer than the shutdown budget.
   */
  stopping?: AbortSignal;
}

export class OutboundSender {
  private readonly confirmTimeoutMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly fundingBackoffMs: (checks: number) => number;
  private readonly stopping?: AbortSignal;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly chain: ChainClient,
    private readonly builders: OutboundBuilders,
    private readonly log: Logger,
    opts: OutboundSenderOptions = {},
  ) {
    this.confirmTimeoutMs = opts.confirmTimeoutMs ?? 15_000;
    this.pollMs = opts.pollMs ?? 100;
    this.maxAttempts = opts.maxAttempts ?? 25;
    this.fundingBackoffMs = opts.fundingBackoffMs ?? fundingBackoffMs;
    this.stopping = opts.stopping;
  }

  async process(id: string): Promise<OutboundResult> {
    const row = await findOutbound(this.db, id);
    if (!row) throw new Error(`outbound transaction ${id} not found`);
    const builder = this.builders[row.purpose];
    if (!builder) throw new Error(`no outbound builder for purpose ${row.purpose}`);
    const params: unknown = JSON.parse(row.params);
    if (row.status === 'failed') return { id, status: 'failed', signature: row.signature };
    if (row.status === 'confirmed') {
      await builder.onConfirmed?.(params, row.signature!);
      return { id, status: 'confirmed', signature: row.signature };
    }
    if (row.attempts >= this.maxAttempts) {
      await markOutbound(this.db, id, 'failed', {
        now: now(),
        lastError: `gave up after ${row.attempts} attempts: ${row.last_error ?? ''}`,
      });
      return { id, status: 'failed', signature: row.signature };
    }
    await markOutbound(this.db, id, row.status, { now: now(), bumpAttempts: true });
    try {
      return await this.attempt(row, params, builder);
    } catch (error) {
      return this.attemptFailed(row, error);
    }
  }

  private async attempt(row: OutboundRow, params: unknown, builder: OutboundBuilder): Promise<OutboundResult> {
    const id = row.id;
    let signature = row.signature;
    if (row.signature && row.raw_tx) {
      const height = await this.chain.getBlockHeight('confirmed');
      const landed = await this.landedStatus(row.signature);
      if (landed === 'ok') return this.confirm(row, params, builder);
      const expired = landed === 'err' || height > Number(row.last_valid_block_height ?? 0);
      if (!expired) {
        await this.send(Buffer.from(row.raw_tx, 'base64'), row, params, builder);
      } else {
        signature = await this.rebuildAndSend(row, params, builder);
      }
    } else {
      signature = await this.rebuildAndSend(row, params, builder);
    }
    if (signature === null) {
      // Two jobs for one row (a start-up dispatch and the resume scan, say): the other one built
      // and sent it. Not a failure: follow its signature like our own.
      signature = (await findOutbound(this.db, id))?.signature ?? null;
      this.log.debug({ outbound: id, signature }, 'outbound built by a concurrent job; following its signature');
      if (signature === null) throw new Error(`outbound ${id}: built concurrently but no signature recorded; will retry`);
    }
    // Stop waiting once the bytes' blockhash expired: they can never land, and the next attempt
    // (after its own landed-or-not check) rebuilds at once instead of a worker idling out the timeout.
    const built = await findOutbound(this.db, id);
    const outcome = await this.waitForConfirmation(
      signature,
      built?.signature === signature ? Number(built.last_valid_block_height ?? 0) || undefined : undefined,
    );
    if (outcome === 'ok') return this.confirm({ ...row, signature }, params, builder);
    const reason =
      outcome === 'err'
        ? 'transaction failed on chain'
        : outcome === 'expired'
          ? 'blockhash expired before it landed'
          : this.stopping?.aborted
            ? 'the daemon stopped before it was confirmed'
            : 'not confirmed in time';
    await markOutbound(this.db, id, 'sent', { now: now(), lastError: reason });
    throw new Error(`outbound ${id} (${row.purpose}): ${reason}; will retry`);
  }

  /**
   * Waiting for funds is not a failure of the job (it completes; the resume scan brings the row
   * back when its next check is due); a terminal error fails the row at once; anything else keeps
   * its reason on the row and is thrown for the job's retry.
   */
  private async attemptFailed(row: OutboundRow, error: unknown): Promise<OutboundResult> {
    const message = (error as Error).message ?? String(error);
    if (error instanceof AwaitingFundsError) {
      const checks = Number(row.funding_checks ?? 0) + 1;
      const at = Date.now();
      await markAwaitingFunds(this.db, row.id, {
        reason: message,
        shortfall: JSON.stringify({
          asset: error.shortfall.asset,
          missingRaw: error.shortfall.missingRaw.toString(),
          wallets: error.shortfall.wallets,
        }),
        nextAttemptAt: new Date(at + this.fundingBackoffMs(checks)).toISOString(),
        now: new Date(at).toISOString(),
      });
      this.log.warn({ outbound: row.id, purpose: row.purpose, checks, reason: message }, 'outbound transaction waits for funds');
      return { id: row.id, status: row.status === 'sent' ? 'sent' : 'pending', signature: row.signature, awaitingFunds: true };
    }
    if (error instanceof TerminalOutboundError) {
      await markOutbound(this.db, row.id, 'failed', { now: now(), lastError: message });
      this.log.error({ outbound: row.id, purpose: row.purpose, reason: message }, 'outbound transaction failed for good');
      return { id: row.id, status: 'failed', signature: row.signature };
    }
    await noteOutboundError(this.db, row.id, message, now());
    throw error;
  }

  private async rebuildAndSend(row: OutboundRow, params: unknown, builder: OutboundBuilder): Promise<string | null> {
    const { blockhash, lastValidBlockHeight } = await this.chain.getLatestBlockhash('confirmed');
    const raw = await builder.build(params, blockhash, { outboundId: row.id, memo: outboundMemoInstruction(row.id) });
    if (!namesOutbound(raw, row.id))
      throw new Error(`outbound builder ${row.purpose} left out the outbound memo or tag (see outbound-memo.ts)`);
    const signature = firstSignature(raw);
    const won = await storeBuilt(this.db, row.id, row.signature, {
      signature,
      rawTx: Buffer.from(raw).toString('base64'),
      blockhash,
      lastValidBlockHeight,
      now: now(),
    });
    if (!won) return null;
    this.log.info({ outbound: row.id, purpose: row.purpose, signature, rebuilt: row.signature !== null }, 'outbound transaction built');
    await this.send(raw, row, params, builder, { marked: true });
    return signature;
  }

  /**
   * Sends; throws at once when the node rejected the bytes in preflight (a program error, no
   * funds): they did not land, waiting is pointless, and the job's retry re-sends the same bytes
   * (state may have changed) or rebuilds once they expired, unless the builder's `onRejected`
   * ends the intent. Node hiccups and "already processed" fall through to the status check.
   */
  private async send(raw: Uint8Array, row: OutboundRow, params: unknown, builder: OutboundBuilder, { marked = false } = {}): Promise<void> {
    try {
      await this.chain.sendRawTransaction(raw);
      // Stored bytes re-sent after a refusal put the status back to pending; fresh ones were stored as sent.
      if (!marked && row.status !== 'sent') await markOutbound(this.db, row.id, 'sent', { now: now() });
    } catch (error) {
      const message = (error as Error).message;
      this.log.warn({ outbound: row.id, err: message }, 'outbound send rejected');
      await markOutbound(this.db, row.id, row.status === 'pending' ? 'pending' : 'sent', { now: now(), lastError: message });
      if (!(error instanceof ChainError) || !REJECTED.has(error.code)) return;
      await builder.onRejected?.(params, error);
      throw new Error(`outbound ${row.id} (${row.purpose}) rejected by the node: ${message}`, { cause: error });
    }
  }

  private async landedStatus(signature: string): Promise<'ok' | 'err' | 'none'> {
    const [status] = await this.chain.getSignatureStatuses([signature]);
    return statusFate(status);
  }

  private async waitForConfirmation(signature: string, lastValidBlockHeight?: number): Promise<'ok' | 'err' | 'timeout' | 'expired'> {
    return awaitSignature(this.chain, signature, {
      timeoutMs: this.confirmTimeoutMs,
      pollMs: this.pollMs,
      lastValidBlockHeight,
      signal: this.stopping,
    });
  }

  private async confirm(row: OutboundRow, params: unknown, builder: OutboundBuilders[string]): Promise<OutboundResult> {
    await markOutbound(this.db, row.id, 'confirmed', { now: now(), lastError: null });
    await builder.onConfirmed?.(params, row.signature!);
    return { id: row.id, status: 'confirmed', signature: row.signature };
  }
}

function firstSignature(raw: Uint8Array): string {
  // Wire format: compact-u16 signature count (1 byte below 128), then 64-byte signatures.
  return bs58.encode(raw.subarray(1, 65));
}

function now(): string {
  return new Date().toISOString();
}
