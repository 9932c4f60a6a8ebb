/**
 * Replace (`POST /v2/clob/orders/{id}/replace`): the owner's `PMX Cancel:<id>` for the old order
 * (so nobody holding a copy of a signed order can use it to cancel another) and a new signed
 * order, cancelled and placed in ONE matcher operation (matcher-ops.ts `replaceOrder`), so the
 * book never shows neither. Refused, the new order not placed and the old one untouched, when the
 * old one no longer rests (`409 ORDER_NOT_RESTING`), or the new order has another owner or market
 * (`400 REPLACE_MISMATCH`), or the new order itself is refused.
 */
import { findOrder } from '../../../../db/repositories/clob-orders.repository.js';
import { DomainError } from '../../../domain/errors.js';
import { cancelOrderText, verifySignedMessage } from '../../../domain/signed-message.js';
import type { FamilyCContext } from '../context.js';
import type { MatcherPort } from '../matcher/matcher.port.js';
import { acceptOrder, type PlaceOrderInput } from './order-intake.js';
import type { MarketLookup } from './market-lookup.js';
import type { PlacementView } from './order.presenter.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ReplaceInput extends PlaceOrderInput {
  cancelSignature: string;
}

export async function replaceOrder(
  ctx: Pick<FamilyCContext, 'db'>,
  markets: MarketLookup,
  matcher: MatcherPort,
  id: string,
  input: ReplaceInput,
  nowMs = Date.now(),
): Promise<{ cancelledOrderId: string; placement: PlacementView }> {
  const old = UUID.test(id) ? await findOrder(ctx.db, id.toLowerCase()) : undefined;
  if (!old) throw new DomainError('not_found', 'ORDER_NOT_FOUND', `No order ${id}`);
  if (!verifySignedMessage(cancelOrderText(old.id), old.owner, input.cancelSignature).ok)
    throw new DomainError(
      'forbidden',
      'INVALID_SIGNATURE',
      `Replacing needs the order owner's signature of "${cancelOrderText(old.id)}" as cancelSignature`,
    );
  const order = await acceptOrder(markets, input, Math.floor(nowMs / 1000));
  if (order.owner !== old.owner || order.marketId !== old.market_id)
    throw new DomainError('invalid', 'REPLACE_MISMATCH', `The new order must have the owner and market of order ${old.id}`);
  if (old.status !== 'open' && old.status !== 'partially_filled')
    throw new DomainError('conflict', 'ORDER_NOT_RESTING', `Order ${old.id} is ${old.status}; nothing was placed`);
  return { cancelledOrderId: old.id, placement: await matcher.replace(old.id, order) };
}
