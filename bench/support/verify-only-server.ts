/**
 * The floor of bench/clob-placement, in a process of its own (as the daemon's API is): a bare
 * Fastify 5 app whose one route takes the same POST /v2/clob/orders body, rebuilds the 92-byte
 * message, verifies the owner's signature of its text with the daemon's own verifier, and answers
 * a small fixed JSON. No funds check, matching, persistence or events. What it reaches under the
 * same load is the most any HTTP placement path can reach on this machine with one API process:
 * the share of the target that HTTP and verification alone leave.
 *
 * Prints its base URL as one line on stdout; exits on SIGTERM or when stdin closes.
 */
import type { AddressInfo } from 'node:net';
import { PublicKey } from '@solana/web3.js';
import Fastify from 'fastify';
import { encodeOrderMessage, orderSigningText } from '../../src/domain/orderbook/index.js';
import { verifySignedMessage } from '../../src/domain/signed-message.js';

interface Body {
  orderMessage: { market: string; owner: string; side: number; outcome: number; priceBps: number; quantity: string; nonce: string; expiry: string };
  signature: string;
}

const app = Fastify({ logger: false });
app.post('/v2/clob/orders', async (request, reply) => {
  const { orderMessage: m, signature } = request.body as Body;
  const bytes = encodeOrderMessage({
    market: new PublicKey(m.market).toBytes(), owner: new PublicKey(m.owner).toBytes(), side: m.side === 0 ? 'buy' : 'sell', outcome: m.outcome === 0 ? 'yes' : 'no',
    priceBps: m.priceBps, quantity: BigInt(m.quantity), nonce: BigInt(m.nonce), expiry: BigInt(m.expiry),
  });
  const check = verifySignedMessage(orderSigningText(bytes), m.owner, signature);
  if (!check.ok) return reply.code(403).send({ error: check.reason });
  return { orderId: m.nonce, status: 'open', fills: [], committedAmount: '0' };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(address.startsWith('http') ? address : `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
