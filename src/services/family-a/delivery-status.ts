/** The `deliveryStatus` of a step-2 answer: the platform transaction's status, or `awaiting_funds`. */
import type { OutboundResult } from '../outbound/outbound.types.js';

export type DeliveryStatus = OutboundResult['status'] | 'awaiting_funds';

export function deliveryStatus(result: OutboundResult): DeliveryStatus {
  return result.awaitingFunds ? 'awaiting_funds' : result.status;
}
