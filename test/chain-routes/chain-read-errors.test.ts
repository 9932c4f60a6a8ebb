/**
 * Chain errors through the `rpc` adapter against the embedded cluster's real JSON-RPC, as a route
 * meets them (issue 25 part 5): what the node refuses about the request answers a 4xx in the
 * family's envelope that names it, a node that cannot answer a 503, never a masked 500 or a 502.
 * Before: a malformed mint in a token-account read answered 500 (the filter was built outside the
 * adapter's error mapping), a malformed address 502, a malformed transaction 502.
 */
import { Keypair } from '@solana/web3.js';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcChainClient } from '../../src/chain/adapters/rpc.adapter.js';
import { createChain, type Chain } from '../../src/chain/create-chain.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let chain: Chain;
let app: TestApp;
const FAST = { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 };

/** Read routes of both families over one rpc client each: a live node and one nobody listens on. */
function probeRoutes(live: RpcChainClient, down: RpcChainClient) {
  return async (f: FastifyInstance) => {
    for (const [prefix, client] of [
      ['/v2/clob/probe', live],
      ['/v2/probe', live],
      ['/v2/probe-down', down],
    ] as const) {
      f.get(`${prefix}/account`, async (req) => client.getAccount((req.query as { address: string }).address));
      f.get(`${prefix}/token-accounts`, async (req) => {
        const q = req.query as { owner: string; mint: string };
        return (await client.getTokenAccountsByOwner(q.owner, { mint: q.mint })).length;
      });
      f.get(`${prefix}/transaction`, async (req) => client.getTransaction((req.query as { signature: string }).signature));
      f.post(`${prefix}/send`, async () => client.sendRawTransaction(new Uint8Array([1, 2, 3, 4])));
      f.get(`${prefix}/slot`, async () => client.getSlot());
    }
  };
}

beforeAll(async () => {
  chain = await createChain({ chain: 'embedded', ledgerRpcPort: 0, logger: pino({ level: 'silent' }) });
  const live = new RpcChainClient({ rpcUrl: chain.rpcUrl, retry: FAST });
  const down = new RpcChainClient({ rpcUrl: 'http://127.0.0.1:9', retry: FAST });
  app = await createTestApp({ routes: [probeRoutes(live, down)] });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await chain?.close();
});

const owner = Keypair.generate().publicKey.toBase58();

describe('chain errors on read routes (rpc adapter, embedded JSON-RPC)', () => {
  it.each([
    ['GET', `/v2/clob/probe/token-accounts?owner=${owner}&mint=not-a-mint`, 400, { error: 'VALIDATION_ERROR' }],
    ['GET', '/v2/clob/probe/account?address=0OIl', 400, { error: 'VALIDATION_ERROR' }],
    ['GET', '/v2/probe/account?address=0OIl', 400, { success: false, code: 'VALIDATION_ERROR' }],
    ['GET', '/v2/probe/transaction?signature=1111', 400, { success: false, code: 'VALIDATION_ERROR' }],
    ['POST', '/v2/clob/probe/send', 400, { error: 'CHAIN_INVALID_TRANSACTION' }],
    ['GET', '/v2/probe-down/slot', 503, { success: false, code: 'NODE_UNAVAILABLE' }],
  ] as const)('%s %s → %i', async (method, url, status, envelope) => {
    const res = await app.app.inject({ method, url });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(envelope);
  });

  it('answers the same reads normally when they are well formed', async () => {
    const res = await app.app.inject({
      method: 'GET',
      url: `/v2/clob/probe/token-accounts?owner=${owner}&mint=${Keypair.generate().publicKey.toBase58()}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('0');
  });
});
