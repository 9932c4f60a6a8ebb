/**
 * Batch placement (`POST /v2/clob/orders/batch`): up to 20 signed orders of any markets and
 * owners, each checked as a single placement would be (signature, market, rules) on the API
 * node, then the accepted orders of each market handed to its matcher as ONE operation
 * (`placeMany`: one commit, the orders matched in request order). Answers in request order, each
 * its placement or the refusal it would have got alone; a market whose matcher cannot be reached
 * answers that refusal (503) for each of its orders, the other markets' orders are unaffected.
 */
import { DomainError, isDomainError, type SerializedDomainError } from '../../../domain/errors.js';
import type { ClobMetrics } from '../../../infra/clob-metrics.js';
import type { BatchPlacement, MatcherPort } from '../matcher/matcher.port.js';
import { acceptOrder, type AcceptedOrder, type PlaceOrderInput } from './order-intake.js';
import type { MarketLookup } from './market-lookup.js';
import { orderRejectReason } from './order-results.js';

export const MAX_BATCH_ORDERS = 20;

export async function placeBatch(
  markets: MarketLookup,
  matcher: MatcherPort,
  metrics: Pick<ClobMetrics, 'orders'>,
  inputs: readonly PlaceOrderInput[],
  nowMs = Date.now(),
): Promise<BatchPlacement[]> {
  const results: BatchPlacement[] = new Array(inputs.length);
  const byMarket = new Map<string, Array<{ index: number; order: AcceptedOrder }>>();
  await Promise.all(
    inputs.map(async (input, index) => {
      try {
        const order = await acceptOrder(markets, input, Math.floor(nowMs / 1000));
        const group = byMarket.get(order.marketId);
        if (group) group.push({ index, order });
        else byMarket.set(order.marketId, [{ index, order }]);
      } catch (error) {
        results[index] = { error: refusal(error) };
      }
    }),
  );
  await Promise.all(
    [...byMarket].map(async ([marketId, group]) => {
      group.sort((a, b) => a.index - b.index); // matched in request order
      try {
        const placed = await matcher.placeMany(
          marketId,
          group.map((g) => g.order),
        );
        group.forEach((g, i) => (results[g.index] = placed[i]!));
      } catch (error) {
        for (const g of group) results[g.index] = { error: refusal(error) };
      }
    }),
  );
  for (const r of results) {
    if ('placement' in r) metrics.orders.inc({ result: 'placed', reason: '' });
    else metrics.orders.inc({ result: 'rejected', reason: orderRejectReason(DomainError.fromJSON(r.error)) });
  }
  return results;
}

/** A domain refusal as it crosses to the answer; anything else is a bug and fails the request (500, logged). */
function refusal(error: unknown): SerializedDomainError {
  if (isDomainError(error)) return error.toJSON();
  throw error;
}
