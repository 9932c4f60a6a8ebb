/**
 * With no worker running (ROLES without `worker`), a Family B write endpoint waits
 * TX_BUILD_TIMEOUT_MS for a builder and then answers 503 in the Family B envelope; reads that do
 * not need a worker keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import { createBody, fundedWallet, get, openHarness, post, type BHarness } from './family-b.harness.js';

let h: BHarness;
let creator: Keypair;
beforeAll(async () => {
  h = await openHarness({ ROLES: 'api,indexer,ledger', TX_BUILD_TIMEOUT_MS: '400' });
  creator = await fundedWallet(h);
});
afterAll(async () => h?.close());

describe('no tx-build worker', () => {
  it('POST /v2/markets/create → 503 in the B envelope after the timeout', async () => {
    const started = Date.now();
    const res = await post(h, '/v2/markets/create', createBody(creator));
    const elapsed = Date.now() - started;
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: expect.any(String) });
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('POST /v2/redeem-all → 503 too; GET /v2/config still answers', async () => {
    expect((await post(h, '/v2/redeem-all', { wallet: creator.publicKey.toBase58() })).statusCode).toBe(503);
    const config = await get(h, '/v2/config');
    expect(config.statusCode).toBe(200);
    expect(config.json().data).toMatchObject({ programInitialized: true, marketCounter: 0 });
  });

  it('input errors are still refused at once with 400, without waiting for a worker', async () => {
    const started = Date.now();
    const res = await post(h, '/v2/markets/create', { ...createBody(creator), title: 'x'.repeat(81) });
    expect(res.statusCode).toBe(400);
    expect(Date.now() - started).toBeLessThan(380);
  });
});
