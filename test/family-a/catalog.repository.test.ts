// The catalog queries on both dialects: filters, pagination, full-text search (FTS5 / tsvector).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { countMarkets, insertMarket, listMarkets } from '../../db/repositories/family-a-markets.repository.js';
import { DIALECTS } from '../helpers/databases.js';

describe.each(DIALECTS.filter((d) => d.available))('catalog repository on $name', ({ open }) => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await open();
    const rows = [
      { slug: 'rain-in-paris', name: 'Will it RAIN in Paris?', description: 'Weather market', status: 'live', creator: 'alice', published: 1 },
      { slug: 'btc-100k', name: 'Bitcoin above 100k', description: 'Crypto prices: will it rain money', status: 'resolved', creator: 'bob', published: 1 },
      { slug: 'election', name: 'Election winner', description: 'Politics', status: 'pending', creator: 'alice', published: 0 },
      { slug: 'amm-7', name: 'Family B market about rainfall', description: '', status: 'active', creator: 'carol', published: 1 },
    ];
    let t = Date.parse('2026-01-01T00:00:00Z');
    for (const r of rows) {
      const now = new Date((t += 1000)).toISOString();
      await insertMarket(db.db, { id: randomUUID(), kind: 'x402', category: '', tags: '[]', image_urls: '[]', yes_ticker: 'YES', no_ticker: 'NO', created_at: now, updated_at: now, ...r });
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  const slugs = async (f: Parameters<typeof listMarkets>[2], limit = 20, offset = 0) =>
    (await listMarkets(db.db, db.dialect, f, limit, offset)).map((m) => m.slug);

  it('lists newest first with count and pagination', async () => {
    expect(await slugs({})).toEqual(['amm-7', 'election', 'btc-100k', 'rain-in-paris']);
    expect(await slugs({}, 2, 1)).toEqual(['election', 'btc-100k']);
    expect(await countMarkets(db.db, db.dialect, {})).toBe(4);
  });

  it('filters by status (live = live + active), creator and published', async () => {
    expect(await slugs({ statuses: ['live', 'active'] })).toEqual(['amm-7', 'rain-in-paris']);
    expect(await slugs({ creator: 'alice' })).toEqual(['election', 'rain-in-paris']);
    expect(await slugs({ published: false })).toEqual(['election']);
  });

  it('searches names and descriptions case-insensitively by word prefix, all words required', async () => {
    expect(await slugs({ terms: ['rain'] })).toEqual(['amm-7', 'btc-100k', 'rain-in-paris']);
    expect(await slugs({ terms: ['rain', 'paris'] })).toEqual(['rain-in-paris']);
    expect(await slugs({ terms: ['crypt'] })).toEqual(['btc-100k']);
    expect(await slugs({ terms: ['rain'], statuses: ['resolved'] })).toEqual(['btc-100k']);
    expect(await countMarkets(db.db, db.dialect, { terms: ['nothing'] })).toBe(0);
  });
});
