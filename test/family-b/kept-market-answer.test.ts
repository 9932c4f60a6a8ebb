/**
 * GET /v2/markets/{id} keeps its serialized answer while no connection commits (issue 31): a
 * repeat read sends the same bytes with the same headers, those bytes are what the route's
 * serializer makes of a fresh envelope, and any commit (a trade, or a write by the main
 * connection) is seen by the next read. An id the index lacks is never kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConnectionOf } from '../../db/read-connection.js';
import { buy, createMarket, fundedWallet, get, openHarness, waitFor, type BHarness } from './family-b.harness.js';

let h: BHarness;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => h?.close());

const sameHeaders = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  for (const name of ['content-type', 'content-length', 'x-ratelimit-limit']) expect(b[name]).toEqual(a[name]);
};

describe('kept GET /v2/markets/{id} answers', () => {
  it('runs on the read-only connection (the path under test)', () => {
    expect(readConnectionOf(h.daemon.db.db)).toBeDefined();
  });

  it('a repeat read sends the same bytes and headers, equal to a fresh serialization', async () => {
    const creator = await fundedWallet(h);
    const id = await createMarket(h, creator);
    const first = await get(h, `/v2/markets/${id}`);
    const again = await get(h, `/v2/markets/${id}`);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    sameHeaders(first.headers, again.headers);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    // The Envelope schema's data is unknown: the serializer's bytes are JSON.stringify's.
    expect(first.body).toBe(JSON.stringify({ success: true, data: first.json().data }));
    // The slug route answers the same bytes (Family A delegates integer ids here).
    expect((await get(h, `/v2/markets/${id}`)).body).toBe(first.body);
  });

  it('a trade changes the next answer', async () => {
    const creator = await fundedWallet(h);
    const id = await createMarket(h, creator);
    const before = await get(h, `/v2/markets/${id}`);
    await get(h, `/v2/markets/${id}`); // kept now
    await buy(h, id, creator, 'UP', 5_000_000);
    const after = await waitFor('the trade in the index', async () => {
      const res = await get(h, `/v2/markets/${id}`);
      return res.body === before.body ? undefined : res;
    });
    expect(after.json().data).not.toEqual(before.json().data);
  });

  it('any commit by the main connection is seen by the next read', async () => {
    const creator = await fundedWallet(h);
    const id = await createMarket(h, creator);
    const before = (await get(h, `/v2/markets/${id}`)).json().data;
    await get(h, `/v2/markets/${id}`);
    await h.daemon.db.db
      .updateTable('chain_markets')
      .set({ slot: BigInt(before.slot) + 1_000n })
      .where('market_id', '=', BigInt(id))
      .execute();
    const after = await get(h, `/v2/markets/${id}`);
    expect(after.json().data).toEqual({ ...before, slot: before.slot + 1_000 });
    expect(after.body).toBe(JSON.stringify({ success: true, data: after.json().data }));
  });

  it('an id the index lacks answers 404 and is not kept: indexed later, it is served', async () => {
    const creator = await fundedWallet(h);
    const first = await createMarket(h, creator);
    expect((await get(h, `/v2/markets/${first + 1}`)).statusCode).toBe(404);
    expect((await get(h, `/v2/markets/${first + 1}`)).statusCode).toBe(404);
    expect(await createMarket(h, creator)).toBe(first + 1);
    const res = await waitFor('the indexed market', async () => {
      const r = await get(h, `/v2/markets/${first + 1}`);
      return r.statusCode === 200 ? r : undefined;
    });
    expect(res.json().data).toMatchObject({ id: first + 1 });
  });
});

describe('kept GET /v2/positions/{wallet} answers', () => {
  it('a repeat read sends the same bytes and headers; a trade changes the next answer', async () => {
    const creator = await fundedWallet(h);
    const id = await createMarket(h, creator);
    const wallet = creator.publicKey.toBase58();
    const first = await get(h, `/v2/positions/${wallet}`);
    const again = await get(h, `/v2/positions/${wallet}`);
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    sameHeaders(first.headers, again.headers);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    await buy(h, id, creator, 'UP', 5_000_000);
    const after = await waitFor('the trade in the index', async () => {
      const res = await get(h, `/v2/positions/${wallet}`);
      return res.body === first.body ? undefined : res;
    });
    expect(after.json().data).toContainEqual(expect.objectContaining({ marketId: id }));
  });

  it('an invalid wallet is still refused (400), never kept', async () => {
    for (let i = 0; i < 2; i++) expect((await get(h, '/v2/positions/not-a-wallet')).statusCode).toBe(400);
  });
});
