/**
 * Names for the request and response bodies the helpers build and return, taken from the
 * generated OpenAPI types, so a change of the daemon's schemas shows up here as a type error.
 */
import type { paths } from './generated/openapi.js';

type JsonBody<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : never;
type JsonOk<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer R } } };
}
  ? R
  : never;

export type PlaceOrderBody = JsonBody<'/v2/clob/orders', 'post'>;
export type SignedOrderMessage = PlaceOrderBody['orderMessage'];
export type Placement = JsonOk<'/v2/clob/orders', 'post'>;
export type BatchBody = JsonBody<'/v2/clob/orders/batch', 'post'>;
export type BatchResult = JsonOk<'/v2/clob/orders/batch', 'post'>['results'][number];
export type CancelBody = JsonBody<'/v2/clob/orders/{id}/cancel', 'post'>;
export type CancelAllBody = JsonBody<'/v2/clob/orders/cancel-all', 'post'>;
export type CancelOrdersBody = JsonBody<'/v2/clob/orders/cancel', 'post'>;
export type CancelOrdersResult = JsonOk<'/v2/clob/orders/cancel', 'post'>;
export type ReplaceBody = JsonBody<'/v2/clob/orders/{id}/replace', 'post'>;
export type ReplaceResult = JsonOk<'/v2/clob/orders/{id}/replace', 'post'>;
export type HeartbeatBody = JsonBody<'/v2/clob/heartbeat', 'post'>;
export type ConfirmMarketBody = JsonBody<'/v2/markets/confirm', 'post'>;
