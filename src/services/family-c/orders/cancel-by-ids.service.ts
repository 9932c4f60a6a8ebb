/**
 * Cancel by ids (`POST /v2/clob/orders/cancel`): up to 100 distinct orders of one owner, proven by
 * the owner's signature of `PMX Cancel Orders:<ids joined by ",">:<unix seconds>`, fresh within
 * 60 s and usable once. The proof's use is recorded like a cancel-all proof's (same table, the
 * reference `ids:` + SHA-256 of the signed id list), so a replay within the window cancels
 * nothing; it is released when the cancels could not run, so the client's retry still works.
 * Each id ends cancelled or in `notCancelled` with why: `not_found`, `not_owner`, `not_resting`
 * (filled or cancelled before), `proof_used` (a replayed proof).
 */
import { createHash } from 'node:crypto';
import {
  claimCancelAllProof,
  pruneCancelAllProofs,
  releaseCancelAllProof,
} from '../../../../db/repositories/clob-cancel-all.repository.js';
import { ordersByIds } from '../../../../db/repositories/clob-orders.repository.js';
import { DomainError } from '../../../domain/errors.js';
import { CANCEL_ALL_WINDOW_SEC, cancelOrdersText, isFresh, verifySignedMessage } from '../../../domain/signed-message.js';
import { parsePubkey, type FamilyCContext } from '../context.js';
import type { MatcherPort } from '../matcher/matcher.port.js';

export type NotCancelledReason = 'not_found' | 'not_owner' | 'not_resting' | 'proof_used';

export interface CancelByIdsBody {
  pubkey: string;
  orderIds: string[];
  timestamp: number;
  signature: string;
}

export async function cancelOrdersByIds(ctx: FamilyCContext, matcher: MatcherPort, body: CancelByIdsBody, nowMs = Date.now()) {
  const owner = parsePubkey(body.pubkey).toBase58();
  if (new Set(body.orderIds).size !== body.orderIds.length)
    throw new DomainError('invalid', 'DUPLICATE_ORDER_ID', 'orderIds must be distinct');
  const text = cancelOrdersText(body.orderIds, body.timestamp);
  if (!verifySignedMessage(text, owner, body.signature).ok)
    throw new DomainError('forbidden', 'INVALID_SIGNATURE', `Cancelling by ids needs the owner's signature of "${text}"`);
  if (!isFresh(body.timestamp, nowMs, CANCEL_ALL_WINDOW_SEC))
    throw new DomainError(
      'forbidden',
      'SIGNATURE_EXPIRED',
      `The cancel proof must be signed within ${CANCEL_ALL_WINDOW_SEC} s of now (timestamp ${body.timestamp})`,
    );

  const notCancelled: Array<{ orderId: string; reason: NotCancelledReason }> = [];
  const proof = { owner, marketRef: `ids:${createHash('sha256').update(body.orderIds.join(',')).digest('hex')}`, signedAt: body.timestamp };
  await pruneCancelAllProofs(ctx.db, Math.floor(nowMs / 1000) - 2 * CANCEL_ALL_WINDOW_SEC); // a margin for the API nodes' clocks
  if (!(await claimCancelAllProof(ctx.db, proof, new Date(nowMs).toISOString())))
    return { cancelled: [] as string[], notCancelled: body.orderIds.map((orderId) => ({ orderId, reason: 'proof_used' as const })) };

  const rows = new Map((await ordersByIds(ctx.db, body.orderIds)).map((r) => [r.id, r]));
  const byMarket = new Map<string, string[]>();
  for (const id of body.orderIds) {
    const row = rows.get(id);
    const refused: NotCancelledReason | undefined = !row
      ? 'not_found'
      : row.owner !== owner
        ? 'not_owner'
        : row.status !== 'open' && row.status !== 'partially_filled'
          ? 'not_resting'
          : undefined;
    if (refused) notCancelled.push({ orderId: id, reason: refused });
    else byMarket.set(row!.market_id, [...(byMarket.get(row!.market_id) ?? []), id]);
  }
  const done = new Set<string>();
  try {
    for (const [marketId, ids] of byMarket) for (const id of (await matcher.cancelOrders(marketId, ids, 'user')).cancelled) done.add(id);
  } catch (error) {
    // Not acknowledged: the client's retry must still work (what was cancelled then reads not_resting).
    await releaseCancelAllProof(ctx.db, proof);
    throw error;
  }
  for (const ids of byMarket.values()) for (const id of ids) if (!done.has(id)) notCancelled.push({ orderId: id, reason: 'not_resting' }); // filled since it was read
  const order = new Map(body.orderIds.map((id, i) => [id, i]));
  notCancelled.sort((a, b) => order.get(a.orderId)! - order.get(b.orderId)!);
  return { cancelled: body.orderIds.filter((id) => done.has(id)), notCancelled };
}
