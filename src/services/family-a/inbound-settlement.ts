/**
 * Recording what became of every inbound transfer of a transaction, inside the caller's database
 * transaction (issue 8 item 2). Each transfer is one row keyed UNIQUE (signature, transfer index):
 * it is first recorded `held` if absent, then moved on with a compare-and-set on its state. An
 * honour moves it `held → honoured` in the same database transaction that records the payment and
 * its delivery; a refund moves it `held → refunded` in the same database transaction that records
 * the refund's outbound intent (idempotency key `a-refund-<signature>-<index>`). Whichever commits
 * first wins; the other finds the row no longer `held` and does nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  insertInboundIfAbsent,
  transitionInbound,
  type InboundRow,
  type InboundState,
} from '../../../db/repositories/family-a-inbound.repository.js';
import type { Database } from '../../../db/schema.js';
import { decideUnhonoured, type Decision } from '../../domain/family-a/inbound-credits.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { PURPOSES, type RefundParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import type { CreditFacts, RefundSource } from './inbound-facts.js';

/** The part of a credited account a payment honours. */
export interface HonouredCredit {
  account: string;
  amount: bigint;
}

export interface PlanItem {
  facts: CreditFacts;
  honouredRaw: bigint;
  /** For the rest (all of it when nothing is honoured); null when the credit is honoured in full. */
  decision: Decision | null;
}

export interface SettlementPlan {
  signature: string;
  blockTimeMs: number | null;
  items: PlanItem[];
}

/** The honour's compare-and-set lost: the transfer was decided otherwise first (see honour-payment.ts). */
export class TransferAlreadyDecided extends Error {
  constructor(
    readonly signature: string,
    readonly index: number,
  ) {
    super(`transfer ${index} of ${signature} was decided otherwise first`);
    this.name = 'TransferAlreadyDecided';
  }
}

export function planSettlement(
  deps: FamilyADeps,
  signature: string,
  blockTimeMs: number | null,
  facts: CreditFacts[],
  honoured: HonouredCredit[],
  consumed: boolean,
): SettlementPlan {
  const graceMs = deps.settings.presentGraceSec * 1000;
  const items = facts.map((f): PlanItem => {
    const honouredRaw = honoured.find((h) => h.account === f.credit.account)?.amount ?? 0n;
    if (honouredRaw === 0n) return { facts: f, honouredRaw, decision: decideUnhonoured(f.credit, f.purpose, graceMs, consumed) };
    const rest = f.credit.amount - honouredRaw;
    const decision =
      rest > 0n
        ? decideUnhonoured({ ...f.credit, amount: rest }, { kind: 'none', why: 'paid more than the payment it honoured' }, graceMs, true)
        : null;
    return { facts: f, honouredRaw, decision };
  });
  return { signature, blockTimeMs, items };
}

function refundParams(item: PlanItem): RefundParams {
  const { credit, source } = item.facts;
  return {
    asset: credit.asset,
    source,
    fromAccount: credit.account,
    to: credit.sender!.account,
    toOwner: credit.sender!.owner,
    amountRaw: (credit.amount - item.honouredRaw).toString(),
  };
}

/**
 * Applies a plan; returns the ids of the refund intents it recorded (to dispatch after commit).
 * `honourFrom`: the states an honoured transfer may be taken from (`held`; a claim also takes
 * its own earlier `credited` transfer). Throws TransferAlreadyDecided, rolling the caller's
 * database transaction back, when an honoured transfer was decided otherwise first.
 */
export async function applySettlement(
  trx: Kysely<Database> | Transaction<Database>,
  plan: SettlementPlan,
  honourFrom: InboundState[] = ['held'],
): Promise<string[]> {
  const now = new Date().toISOString();
  const refunds: string[] = [];
  for (const item of plan.items) {
    const { credit, marketId } = item.facts;
    const key = { signature: plan.signature, index: credit.index };
    const decision = item.decision;
    await insertInboundIfAbsent(trx, {
      id: randomUUID(),
      signature: plan.signature,
      transfer_index: credit.index,
      account: credit.account,
      asset: credit.asset,
      owner: credit.owner,
      amount_raw: credit.amount,
      honoured_raw: 0n,
      sender_account: credit.sender?.account ?? null,
      sender_owner: credit.sender?.owner ?? null,
      market_id: marketId,
      state: 'held',
      reason: decision?.reason ?? '',
      refund_after: decision?.state === 'held' ? new Date(decision.refundAfterMs).toISOString() : null,
      outbound_id: null,
      block_time: plan.blockTimeMs === null ? null : new Date(plan.blockTimeMs).toISOString(),
      created_at: now,
      updated_at: now,
    });
    if (item.honouredRaw === 0n && decision?.state === 'held') continue;
    const state: InboundState = decision ? (decision.state as InboundState) : 'honoured';
    const outboundId = state === 'refunded' ? randomUUID() : null;
    const won = await transitionInbound(trx, key, item.honouredRaw > 0n ? honourFrom : ['held'], {
      state,
      honoured_raw: item.honouredRaw,
      reason: decision?.reason ?? '',
      refund_after: null,
      outbound_id: outboundId,
      updated_at: now,
    });
    if (!won && item.honouredRaw > 0n) throw new TransferAlreadyDecided(plan.signature, credit.index);
    if (won && outboundId) {
      await recordOutboundIntent(trx, {
        id: outboundId,
        idempotencyKey: refundKey(plan.signature, credit.index),
        purpose: PURPOSES.refund,
        params: refundParams(item),
      });
      refunds.push(outboundId);
    }
  }
  return refunds;
}

export function refundKey(signature: string, index: number): string {
  return `a-refund-${signature}-${index}`;
}

/** Whose keypair refunds a recorded transfer: the platform wallet, or the option wallet that owns it. */
function sourceOf(deps: FamilyADeps, row: InboundRow): RefundSource {
  if (row.owner === deps.keys.platform().publicKey.toBase58() || row.market_id === null) return 'PLATFORM';
  return { marketId: row.market_id, side: deps.keys.optionWallet(row.market_id, 'YES').publicKey.toBase58() === row.owner ? 'YES' : 'NO' };
}

/**
 * Refunds a recorded transfer that waited in vain (held past its deadline, or a credit no claim
 * can count any more): the same compare-and-set and intent as a refund decided at once. Returns
 * the refund intent's id when this call won and recorded one.
 */
export async function refundRecorded(
  trx: Kysely<Database> | Transaction<Database>,
  deps: FamilyADeps,
  row: InboundRow,
  reason: string,
): Promise<string | null> {
  const now = new Date().toISOString();
  const key = { signature: row.signature, index: Number(row.transfer_index) };
  if (row.sender_account === null || row.sender_owner === null) {
    await transitionInbound(trx, key, [row.state], {
      state: 'manual',
      reason: `${reason}; several owners sent this asset, so no single account to refund`,
      refund_after: null,
      updated_at: now,
    });
    return null;
  }
  const outboundId = randomUUID();
  if (
    !(await transitionInbound(trx, key, [row.state], {
      state: 'refunded',
      reason,
      refund_after: null,
      outbound_id: outboundId,
      updated_at: now,
    }))
  )
    return null;
  const params: RefundParams = {
    asset: row.asset,
    source: sourceOf(deps, row),
    fromAccount: row.account,
    to: row.sender_account,
    toOwner: row.sender_owner,
    amountRaw: (BigInt(row.amount_raw) - BigInt(row.honoured_raw)).toString(),
  };
  await recordOutboundIntent(trx, {
    id: outboundId,
    idempotencyKey: refundKey(row.signature, key.index),
    purpose: PURPOSES.refund,
    params,
  });
  return outboundId;
}
