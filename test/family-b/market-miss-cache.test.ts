/**
 * GET /v2/markets/{id} on an id the index does not hold (issue 10 item 4): the chain is asked once,
 * and repeated requests for the same unknown id within the miss TTL are answered 404 without
 * another chain read. The index stays the truth: a market indexed after the miss is served at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMarketPda } from '@pmx/programs';
import { createMarket, fundedWallet, get, openHarness, waitFor, type BHarness } from './family-b.harness.js';

let h: BHarness;
/** Chain reads of each address, counted around the daemon's real chain client. */
const reads = new Map<string, number>();

beforeAll(async () => {
  h = await openHarness();
  const client = h.daemon.chain.client;
  const getAccount = client.getAccount.bind(client);
  client.getAccount = async (address, ...rest) => {
    reads.set(address, (reads.get(address) ?? 0) + 1);
    return getAccount(address, ...rest);
  };
});
afterAll(async () => h?.close());

const marketAddress = (id: number) => findMarketPda(BigInt(id), h.daemon.chain.programs.market)[0].toBase58();

describe('unknown market ids', () => {
  it('repeated GETs of an unknown id cost one chain read, each answering 404', async () => {
    const unknown = 987_654_321;
    for (let i = 0; i < 20; i++) {
      const res = await get(h, `/v2/markets/${unknown}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'MARKET_NOT_FOUND' });
    }
    expect(reads.get(marketAddress(unknown))).toBe(1);
  });

  it('distinct unknown ids are each read once', async () => {
    const ids = [11_000_001, 11_000_002, 11_000_003];
    for (let round = 0; round < 3; round++) for (const id of ids) expect((await get(h, `/v2/markets/${id}`)).statusCode).toBe(404);
    for (const id of ids) expect(reads.get(marketAddress(id))).toBe(1);
  });

  it('a market the index learns after a miss is served from the index, not hidden by the miss', async () => {
    const creator = await fundedWallet(h);
    const first = await createMarket(h, creator);
    const next = first + 1;
    expect((await get(h, `/v2/markets/${next}`)).statusCode).toBe(404);
    const created = await createMarket(h, creator);
    expect(created).toBe(next);
    const res = await waitFor('indexed market', async () => {
      const r = await get(h, `/v2/markets/${next}`);
      return r.statusCode === 200 ? r : undefined;
    });
    expect(res.json().data).toMatchObject({ id: next });
  });
});
