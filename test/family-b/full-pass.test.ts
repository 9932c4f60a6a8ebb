/**
 * The full index pass is linear (issue 15 item 1): on the embedded cluster it reads the token
 * accounts once for the whole pass, not twice per market (which made a pass quadratic: 0.47 ms ×
 * markets²), and it still indexes every market's token accounts.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FamilyBContext } from '../../src/services/family-b/context.js';
import { fullIndexPass } from '../../src/services/family-b/market-index.service.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { buy, createMarket, fundedWallet, openHarness, USDC, type BHarness } from './family-b.harness.js';

let h: BHarness;
const tokenScans: number[] = [];

beforeAll(async () => {
  h = await openHarness({ INDEX_INTERVAL_MS: '3600000' });
  const [creator, alice] = await Promise.all([fundedWallet(h), fundedWallet(h)]);
  for (let i = 0; i < 4; i++) {
    const id = await createMarket(h, creator);
    await buy(h, id, alice, i % 2 ? 'YES' : 'NO', USDC);
  }
  const client = h.daemon.chain.client;
  const getProgramAccounts = client.getProgramAccounts.bind(client);
  client.getProgramAccounts = async (programId, ...rest) => {
    if (programId === TOKEN_PROGRAM_ID.toBase58()) tokenScans.push(Date.now());
    return getProgramAccounts(programId, ...rest);
  };
});
afterAll(async () => h?.close());

describe('full index pass', () => {
  it('reads the token accounts once for four markets and indexes them all into an empty database', async () => {
    const db = await sqliteDatabase();
    try {
      const ctx: FamilyBContext = { db: db.db, chain: h.daemon.chain.client, programId: h.daemon.chain.programs.market, usdcMint: h.usdcMint, log: pino({ level: 'silent' }) };
      const result = await fullIndexPass(ctx);
      expect(result.markets).toBe(4);
      expect(tokenScans).toHaveLength(1); // was 2 per market
      // Each market: alice's outcome account (the seed's creator holds none).
      const rows = await db.db.selectFrom('token_accounts').select(['mint', 'amount']).execute();
      expect(rows).toHaveLength(result.tokenAccounts);
      expect(rows.length).toBeGreaterThanOrEqual(4);
    } finally {
      await db.close();
    }
  });
});
