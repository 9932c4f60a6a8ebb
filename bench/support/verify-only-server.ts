/**
 * The floor of the placement benches, in a process of its own (as the daemon's API is): a bare
 * Fastify 5 app whose routes take the same POST /v2/clob/orders body (and /v2/clob/orders/batch
 * `{orders: [...]}`), rebuild each 92-byte message and verify the owner's signature of its text
 * with the daemon's own intake (`verifiedOrderMessage`, the first step of every placement), and
 * answer a small fixed JSON per order. No funds check, matching, persistence or events. What it
 * reaches under the same load is the most any HTTP placement path can reach on this machine with
 * one API process: the share of the target that HTTP and verification alone leave.
 *
 * With `FLOOR_DURABLE` (`sqlite:<file>` or a PostgreSQL URL) each verified order is also stored
 * and committed before its answer (durable-floor.ts): the floor of a placement that keeps its
 * durability and nonce guarantees; a reused nonce is answered DUPLICATE_NONCE.
 *
 * Prints its base URL as one line on stdout; exits on SIGTERM or when stdin closes.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { isDomainError } from '../../src/domain/errors.js';
import { toHex } from '../../src/domain/orderbook/index.js';
import { verifiedOrderMessage, type PlaceOrderInput } from '../../src/services/family-c/orders/order-intake.js';
import { openOrderSink } from './durable-floor.js';

const sink = process.env.FLOOR_DURABLE ? openOrderSink(process.env.FLOOR_DURABLE) : undefined;

async function placed(body: PlaceOrderInput): Promise<Record<string, unknown>> {
  let bytes: Uint8Array;
  try {
    bytes = verifiedOrderMessage(body).bytes;
  } catch (error) {
    if (isDomainError(error)) return { error: 'INVALID_SIGNATURE', message: error.message };
    throw error;
  }
  const { owner, nonce } = body.orderMessage;
  if (sink && !(await sink.record({ owner, nonce, message: toHex(bytes), signature: body.signature })))
    return { error: 'DUPLICATE_NONCE', message: `nonce ${nonce} was used` };
  return { orderId: nonce, status: 'open', fills: [], committedAmount: '0' };
}

const app = Fastify({ logger: false });
app.post('/v2/clob/orders', async (request, reply) => {
  const answer = await placed(request.body as PlaceOrderInput);
  return 'error' in answer ? reply.code(403).send(answer) : answer;
});
app.post('/v2/clob/orders/batch', async (request) => ({
  results: await Promise.all((request.body as { orders: PlaceOrderInput[] }).orders.map(placed)),
}));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(address.startsWith('http') ? address : `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
