/**
 * The floor of the placement benches, in a process of its own (as the daemon's API is): a bare
 * Fastify 5 app whose routes take the same POST /v2/clob/orders body (and /v2/clob/orders/batch
 * `{orders: [...]}`), rebuild each 92-byte message and verify the owner's signature of its text
 * with the daemon's own intake (`verifiedOrderMessage`, the first step of every placement), and
 * answer a small fixed JSON per order. No funds check, matching, persistence or events. What it
 * reaches under the same load is the most any HTTP placement path can reach on this machine with
 * one API process: the share of the target that HTTP and verification alone leave.
 *
 * Prints its base URL as one line on stdout; exits on SIGTERM or when stdin closes.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { isDomainError } from '../../src/domain/errors.js';
import { verifiedOrderMessage, type PlaceOrderInput } from '../../src/services/family-c/orders/order-intake.js';

function placed(body: PlaceOrderInput): Record<string, unknown> {
  try {
    verifiedOrderMessage(body);
  } catch (error) {
    if (isDomainError(error)) return { error: 'INVALID_SIGNATURE', message: error.message };
    throw error;
  }
  return { orderId: body.orderMessage.nonce, status: 'open', fills: [], committedAmount: '0' };
}

const app = Fastify({ logger: false });
app.post('/v2/clob/orders', async (request, reply) => {
  const answer = placed(request.body as PlaceOrderInput);
  return 'error' in answer ? reply.code(403).send(answer) : answer;
});
app.post('/v2/clob/orders/batch', async (request) => ({
  results: (request.body as { orders: PlaceOrderInput[] }).orders.map(placed),
}));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(address.startsWith('http') ? address : `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
