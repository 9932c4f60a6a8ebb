/**
 * Two confirms of different markets asking for the same slug at the same moment: both pass the
 * slugTaken check, one insert wins and the other hits the unique index on slug, which answered
 * 500. The race is made deterministic by letting the check miss (as it does when the other
 * insert lands between check and insert); the loser must answer 409 SLUG_TAKEN, as Family A and
 * C admin creation do, and record nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as CatalogRepository from '../../db/repositories/market-catalog.repository.js';
import { confirmProof, createMarket, fundedWallet, get, openHarness, post, type BHarness } from './family-b.harness.js';

const race = vi.hoisted(() => ({ checkMisses: false }));
vi.mock('../../db/repositories/market-catalog.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof CatalogRepository>();
  return {
    ...original,
    slugTaken: async (...args: Parameters<typeof original.slugTaken>) => (race.checkMisses ? false : original.slugTaken(...args)),
  };
});

let h: BHarness;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => h?.close());

describe('POST /v2/markets/confirm with a slug another market takes meanwhile', () => {
  it('answers 409 SLUG_TAKEN (was 500) and leaves the winner its slug', async () => {
    const creator = await fundedWallet(h);
    const wallet = creator.publicKey.toBase58();
    const first = await createMarket(h, creator);
    const second = await createMarket(h, creator);
    const confirm = (id: number) =>
      post(h, '/v2/markets/confirm', { marketId: id, wallet, ...confirmProof(creator, id), slug: 'raced-slug' });

    expect((await confirm(first)).statusCode).toBe(200);
    race.checkMisses = true;
    const loser = await confirm(second).finally(() => (race.checkMisses = false));
    expect(loser.statusCode, loser.body).toBe(409);
    expect(loser.json()).toMatchObject({ success: false, code: 'SLUG_TAKEN' });
    expect((await get(h, '/v2/markets/raced-slug/details')).json().data).toMatchObject({ metadata: { chain_market_id: first } });
    // The loser can still confirm under another slug.
    expect(
      (await post(h, '/v2/markets/confirm', { marketId: second, wallet, ...confirmProof(creator, second), slug: 'raced-slug-2' }))
        .statusCode,
    ).toBe(200);
  });

  it('two concurrent confirms with one slug: one 200, the other 409, never 500', async () => {
    const creator = await fundedWallet(h);
    const wallet = creator.publicKey.toBase58();
    const ids = [await createMarket(h, creator), await createMarket(h, creator)];
    const answers = await Promise.all(
      ids.map((id) => post(h, '/v2/markets/confirm', { marketId: id, wallet, ...confirmProof(creator, id), slug: 'concurrent-slug' })),
    );
    expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join('\n')).toEqual([200, 409]);
  });
});
