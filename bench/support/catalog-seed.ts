/** Family A catalog rows for the benches: `n` published markets with searchable names, 1,000 per insert. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export const WORDS = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${(i * 7919) % 1000}`);

export async function seedCatalog(db: Kysely<Database>, n: number, slugPrefix = 'm'): Promise<void> {
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  for (let start = 0; start < n; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + 1000); i++) {
      const created = new Date(t0 + i * 1000).toISOString();
      rows.push({
        id: randomUUID(),
        slug: `${slugPrefix}-${i}`,
        kind: 'x402' as const,
        name: `Will ${WORDS[i % 400]} beat ${WORDS[(i * 31) % 400]} in ${2026 + (i % 5)}?`,
        description: `Market ${i} about ${WORDS[(i * 17) % 400]} and ${WORDS[(i * 13) % 400]}`,
        category: 'bench',
        tags: '[]',
        image_urls: '[]',
        status: i % 3 === 0 ? 'resolved' : 'live',
        yes_ticker: 'YES',
        no_ticker: 'NO',
        published: 1,
        created_at: created,
        updated_at: created,
      });
    }
    await db.insertInto('markets').values(rows).execute();
  }
}
