/**
 * The full index pass is linear (issue 15 item 1): it reads each outcome mint's token accounts
 * with a mint filter (on the embedded cluster an index lookup of that mint's accounts), never the
 * whole Token program (a pass used to copy every token account of the ledger twice per market:
 * 0.47 ms × markets²), and it still indexes every market's token accounts.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainClient } from '../../src/chain/chain-client.js';
import type { FamilyBContext } from '../../src/services/family-b/context.js';
import { fullIndexPass } from '../../src/services/family-b/market-index.service.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { buy, createMarket, fundedWallet, openHarness, USDC, type BHarness } from './family-b.harness.js';

let h: BHarness;
const tokenReads: Array<{ filters: unknown[]; found: number }> = [];

beforeAll(async () => {
  h = await openHarness({ INDEX_INTERVAL_MS: '3600000' });
  const [creator, alice] = await Promise.all([fundedWallet(h), fundedWallet(h)]);
  for (let i = 0; i < 4; i++) {
    const id = await createMarket(h, creator);
    await buy(h, id, alice, i % 2 ? 'YES' : 'NO', USDC);
  }
});

/** The daemon's chain client, recording the pass's token-program reads (and only the pass's: the daemon's own indexer keeps using the original). */
function recordingClient(): ChainClient {
  const client = h.daemon.chain.client;
  const recording = Object.create(client) as ChainClient;
  recording.getProgramAccounts = async (programId, filters) => {
    const found = await client.getProgramAccounts(programId, filters);
    if (programId === TOKEN_PROGRAM_ID.toBase58()) tokenReads.push({ filters: filters ?? [], found: found.length });
    return found;
  };
  return recording;
}
afterAll(async () => h?.close());

describe('full index pass', () => {
  it('reads each outcome mint by a mint filter, never the whole Token program, and indexes every market into an empty database', async () => {
    const db = await sqliteDatabase();
    try {
      const ctx: FamilyBContext = {
        db: db.db,
        chain: recordingClient(),
        programId: h.daemon.chain.programs.market,
        usdcMint: h.usdcMint,
        log: pino({ level: 'silent' }),
      };
      const result = await fullIndexPass(ctx);
      expect(result.markets).toBe(4);
      // Two reads per market (YES and NO mint), each pinned to its mint at offset 0.
      expect(tokenReads).toHaveLength(8);
      for (const read of tokenReads) expect(read.filters).toContainEqual({ memcmp: { offset: 0, bytes: expect.any(String) } });
      // Only the mints' own accounts came back: alice's one outcome account per market.
      expect(tokenReads.reduce((n, r) => n + r.found, 0)).toBe(result.tokenAccounts);
      // Each market: alice's outcome account (the seed's creator holds none).
      const rows = await db.db.selectFrom('token_accounts').select(['mint', 'amount']).execute();
      expect(rows).toHaveLength(result.tokenAccounts);
      expect(rows.length).toBeGreaterThanOrEqual(4);
    } finally {
      await db.close();
    }
  });
});
