/**
 * Family C orders: placement (checked here, matched by the owning matcher), reads from the
 * database, and cancels proven by the owner's signature (`PMX Cancel:<orderId>`, or
 * `PMX Cancel All:<marketId|*>:<unix seconds>` fresh within 60 s, and used once: a replay answers
 * `cancelled: []`).
 */
import { findOrder, listOrders, marketsWithRestingOrders, type OrderRow } from '../../../../db/repositories/clob-orders.repository.js';
import { fillTallyByOrder } from '../../../../db/repositories/clob-fills.repository.js';
import {
  claimCancelAllProof,
  pruneCancelAllProofs,
  releaseCancelAllProof,
} from '../../../../db/repositories/clob-cancel-all.repository.js';
import { DomainError } from '../../../domain/errors.js';
import { CANCEL_ALL_WINDOW_SEC, cancelAllText, cancelOrderText, isFresh, verifySignedMessage } from '../../../domain/signed-message.js';
import { parsePubkey, type FamilyCContext } from '../context.js';
import { requireClobMarket } from '../market-catalog.service.js';
import type { MatcherPort } from '../matcher/matcher.port.js';
import { acceptOrder, type PlaceOrderInput } from './order-intake.js';
import type { MarketLookup } from './market-lookup.js';
import { presentOrder } from './order.presenter.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function placeOrder(markets: MarketLookup, matcher: MatcherPort, input: PlaceOrderInput, nowMs = Date.now()) {
  const order = await acceptOrder(markets, input, Math.floor(nowMs / 1000));
  return matcher.place(order);
}

async function requireOrder(ctx: FamilyCContext, id: string): Promise<OrderRow> {
  const row = UUID.test(id) ? await findOrder(ctx.db, id.toLowerCase()) : undefined;
  if (!row) throw new DomainError('not_found', 'ORDER_NOT_FOUND', `No order ${id}`);
  return row;
}

export async function getOrder(ctx: FamilyCContext, id: string) {
  const row = await requireOrder(ctx, id);
  return presentOrder(row, (await fillTallyByOrder(ctx.db, [row.id])).get(row.id));
}

export interface OrderListQuery {
  pubkey: string;
  marketId?: string;
  status?: 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'settling';
  limit: number;
  cursor?: string;
}

const STORED_AS: Record<NonNullable<OrderListQuery['status']>, Array<'open' | 'partially_filled' | 'filled' | 'cancelled'>> = {
  open: ['open', 'partially_filled'],
  partially_filled: ['partially_filled'],
  filled: ['filled'],
  settling: ['filled'],
  cancelled: ['cancelled', 'filled'],
};

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)) || !UUID.test(id))
    throw new DomainError('invalid', 'INVALID_CURSOR', 'cursor is not one this API returned (pass nextCursor unchanged)');
  return { createdAt, id };
}

export async function listOwnerOrders(ctx: FamilyCContext, q: OrderListQuery) {
  const owner = parsePubkey(q.pubkey).toBase58();
  const marketId = q.marketId ? (await requireClobMarket(ctx, q.marketId)).id : undefined;
  // How an order reads also follows its fills (order.presenter.ts): `settling` and a `cancelled`
  // fill_failed order are stored `filled`, an `open` one may be stored `partially_filled`; select
  // what may read as asked, then keep what does.
  const statuses = q.status ? STORED_AS[q.status] : undefined;
  const rows = await listOrders(
    ctx.db,
    { owner, marketId, statuses: statuses ? [...statuses] : undefined, after: q.cursor ? decodeCursor(q.cursor) : undefined },
    q.limit + 1,
  );
  const page = rows.slice(0, q.limit);
  const tallies = await fillTallyByOrder(
    ctx.db,
    page.map((r) => r.id),
  );
  let orders = page.map((r) => presentOrder(r, tallies.get(r.id)));
  if (q.status) orders = orders.filter((o) => o.status === q.status);
  const last = page[page.length - 1];
  return {
    orders,
    nextCursor: rows.length > q.limit && last ? Buffer.from(`${last.created_at}|${last.id}`, 'utf8').toString('base64url') : null,
  };
}

export async function cancelOrder(ctx: FamilyCContext, matcher: MatcherPort, id: string, body: { pubkey: string; signature: string }) {
  const row = await requireOrder(ctx, id);
  const check = verifySignedMessage(cancelOrderText(row.id), row.owner, body.signature);
  if (row.owner !== body.pubkey || !check.ok) {
    throw new DomainError('forbidden', 'INVALID_SIGNATURE', `Cancelling needs the order owner's signature of "${cancelOrderText(row.id)}"`);
  }
  if (row.status !== 'open' && row.status !== 'partially_filled') {
    return { success: true as const, orderId: row.id, status: presentOrder(row).status, cancelled: false };
  }
  const out = await matcher.cancel(row.market_id, row.id);
  const after = await requireOrder(ctx, row.id);
  return { success: true as const, orderId: row.id, status: presentOrder(after).status, cancelled: out.cancelled.includes(row.id) };
}

export async function cancelAll(
  ctx: FamilyCContext,
  matcher: MatcherPort,
  body: { pubkey: string; marketId: string; timestamp: number; signature: string },
  nowMs = Date.now(),
) {
  const owner = parsePubkey(body.pubkey).toBase58();
  const check = verifySignedMessage(cancelAllText(body.marketId, body.timestamp), owner, body.signature);
  if (!check.ok)
    throw new DomainError(
      'forbidden',
      'INVALID_SIGNATURE',
      `Cancel-all needs the owner's signature of "${cancelAllText(body.marketId, body.timestamp)}"`,
    );
  if (!isFresh(body.timestamp, nowMs, CANCEL_ALL_WINDOW_SEC)) {
    throw new DomainError(
      'forbidden',
      'SIGNATURE_EXPIRED',
      `The cancel-all proof must be signed within ${CANCEL_ALL_WINDOW_SEC} s of now (timestamp ${body.timestamp})`,
    );
  }
  const marketIds = body.marketId === '*' ? undefined : [(await requireClobMarket(ctx, body.marketId)).id];
  // A proof works once: a replay within its window answers that nothing was cancelled.
  const proof = { owner, marketRef: body.marketId, signedAt: body.timestamp };
  await pruneCancelAllProofs(ctx.db, Math.floor(nowMs / 1000) - 2 * CANCEL_ALL_WINDOW_SEC); // a margin for the API nodes' clocks
  if (!(await claimCancelAllProof(ctx.db, proof, new Date(nowMs).toISOString())))
    return { success: true as const, cancelled: [] as string[] };
  try {
    const cancelled: string[] = [];
    for (const marketId of marketIds ?? (await marketsWithRestingOrders(ctx.db, owner)))
      cancelled.push(...(await matcher.cancelOwner(marketId, owner)).cancelled);
    return { success: true as const, cancelled };
  } catch (error) {
    await releaseCancelAllProof(ctx.db, proof); // nothing acknowledged: the client's retry must still work
    throw error;
  }
}

/** Cancels an owner's resting orders in every market (their smart wallet could not pay a fill). */
export async function cancelOwnerInAllMarkets(ctx: FamilyCContext, matcher: MatcherPort, owner: string): Promise<string[]> {
  const cancelled: string[] = [];
  for (const marketId of await marketsWithRestingOrders(ctx.db, owner))
    cancelled.push(...(await matcher.cancelOwner(marketId, owner)).cancelled);
  return cancelled;
}
