/**
 * Order intake's market lookup (orders/market-lookup.ts) on a real SQLite database: a cached row
 * for a second, unknown pubkeys not cached, and lookups of one pubkey while its read is under way
 * sharing that read (under load every order in flight used to miss at once and read again).
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCatalogMarket, insertClobTerms } from '../../db/repositories/clob-markets.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import { findClobMarketPda } from '@pmx/programs';
import { MarketLookup } from '../../src/services/family-c/orders/market-lookup.js';
import { sqliteDatabase } from '../helpers/databases.js';

let db: DatabaseHandle;
let reads = 0;
/** Counts the statements run through the lookup's database (the real one). */
const counting: KyselyPlugin = {
  transformQuery: (args) => {
    reads++;
    return args.node;
  },
  transformResult: async (args) => args.result,
};

async function insertMarket(): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await insertCatalogMarket(db.db, {
    ...{ id, slug: `m-${id.slice(0, 8)}`, kind: 'clob', name: 'M', description: '', category: 'c', tags: '[]', image_urls: '[]' },
    ...{ status: 'active', creator: null, yes_ticker: 'YES', no_ticker: 'NO', end_date: now, published: 0 },
    ...{ yes_mint: Keypair.generate().publicKey.toBase58(), no_mint: Keypair.generate().publicKey.toBase58() },
    ...{ created_at: now, updated_at: now },
  });
  const pubkey = findClobMarketPda(id)[0].toBase58();
  await insertClobTerms(db.db, { market_id: id, market_pubkey: pubkey, vault: 'v', resolution_rules: '', image_url: '', slot: 0n });
  return pubkey;
}

beforeEach(async () => {
  db = await sqliteDatabase();
  reads = 0;
});
afterEach(async () => db.close());

describe('MarketLookup', () => {
  it('reads a market once for lookups made while its read is under way, then answers from the cache', async () => {
    const pubkey = await insertMarket();
    const lookup = new MarketLookup({ db: db.db.withPlugin(counting) });
    const rows = await Promise.all(Array.from({ length: 20 }, () => lookup.byPubkey(pubkey)));
    expect(new Set(rows.map((r) => r?.market_pubkey))).toEqual(new Set([pubkey]));
    expect(reads).toBe(1);
    expect((await lookup.byPubkey(pubkey))?.market_pubkey).toBe(pubkey);
    expect(reads).toBe(1);
  });

  it('does not cache an unknown pubkey: a market created after the miss is found', async () => {
    const lookup = new MarketLookup({ db: db.db.withPlugin(counting) });
    const unknown = findClobMarketPda(randomUUID())[0].toBase58();
    expect(await lookup.byPubkey(unknown)).toBeUndefined();
    const pubkey = await insertMarket();
    expect(await lookup.byPubkey(unknown)).toBeUndefined();
    expect((await lookup.byPubkey(pubkey))?.market_pubkey).toBe(pubkey);
    expect(reads).toBe(3);
  });
});
