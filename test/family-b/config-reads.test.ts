/**
 * GET /v2/config keeps the program's decoded config while its bytes are unchanged
 * (market-reader.ts readProgramConfig): a market that lands shows in the very next read's
 * counter, and the market itself is readable by id at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import { createMarket, fundedWallet, get, openHarness, type BHarness } from './family-b.harness.js';

let h: BHarness;
let creator: Keypair;
beforeAll(async () => {
  h = await openHarness();
  creator = await fundedWallet(h);
});
afterAll(async () => h?.close());

const counter = async () => ((await get(h, '/v2/config')).json().data as { marketCounter: number }).marketCounter;

describe('GET /v2/config after writes', () => {
  it('shows each landed market in the next read, however often it was read before', async () => {
    const before = await counter();
    for (let i = 0; i < 5; i++) expect(await counter()).toBe(before);
    const first = await createMarket(h, creator);
    expect(first).toBe(before + 1);
    expect(await counter()).toBe(first);
    const second = await createMarket(h, creator);
    expect(await counter()).toBe(second);
    const market = await get(h, `/v2/markets/${second}`);
    expect(market.statusCode, market.body).toBe(200);
    expect(market.json().data).toMatchObject({ id: second }); // its mints show once the index has seen init-mints land
  });
});
