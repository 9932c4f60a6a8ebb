// Family A on both dialects, in ONE file so that this suite opens one PostgreSQL schema at a time
// (Kysely's migrator introspects every schema for its lock table: concurrent per-test schemas race).
// Catalog queries (filters, pagination, FTS5 / tsvector search), payments/claims/quotes/outbound
// rows (the unique constraints behind exactly-once, the rebuild compare-and-set), and the buy
// flow with PostgreSQL as the system of record.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { countMarkets, insertMarket, listMarkets } from '../../db/repositories/family-a-markets.repository.js';
import {
  findClaim,
  findPaymentBySignature,
  findQuote,
  insertClaim,
  insertPayment,
  insertQuote,
} from '../../db/repositories/family-a-trades.repository.js';
import {
  expediteAwaitingFunds,
  findOutbound,
  insertOutbound,
  listAwaitingFunds,
  listUnfinishedOutbound,
  markAwaitingFunds,
  markOutbound,
  storeBuilt,
  summarizeAwaitingFunds,
} from '../../db/repositories/outbound-transactions.repository.js';
import { isUniqueViolation } from '../../db/errors.js';
import { DIALECTS, PG_AVAILABLE, postgresDatabase } from '../helpers/databases.js';
import { createHarness, createMarket, fundedUser, tokenBalance, transfer, xPayment, type Harness } from './family-a.harness.js';

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`catalog repository on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
      const rows = [
        {
          slug: 'rain-in-paris',
          name: 'Will it RAIN in Paris?',
          description: 'Weather market',
          status: 'live',
          creator: 'alice',
          published: 1,
        },
        {
          slug: 'btc-100k',
          name: 'Bitcoin above 100k',
          description: 'Crypto prices: will it rain money',
          status: 'resolved',
          creator: 'bob',
          published: 1,
        },
        { slug: 'election', name: 'Election winner', description: 'Politics', status: 'pending', creator: 'alice', published: 0 },
        { slug: 'amm-7', name: 'Family B market about rainfall', description: '', status: 'active', creator: 'carol', published: 1 },
      ];
      let t = Date.parse('2026-01-01T00:00:00Z');
      for (const r of rows) {
        const now = new Date((t += 1000)).toISOString();
        await insertMarket(db.db, {
          id: randomUUID(),
          kind: 'x402',
          category: '',
          tags: '[]',
          image_urls: '[]',
          yes_ticker: 'YES',
          no_ticker: 'NO',
          created_at: now,
          updated_at: now,
          ...r,
        });
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

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`Family A repositories on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });
    const now = () => new Date().toISOString();

    it('stores quotes and finds them by their exact issuedAt', async () => {
      const issued = now();
      await insertQuote(db.db, {
        id: randomUUID(),
        market_id: 'm1',
        wallet: 'w',
        side: 'YES',
        kind: 'buy',
        amount_raw: 1_000_000n,
        issued_at: issued,
        expires_at: issued,
      });
      expect((await findQuote(db.db, { marketId: 'm1', wallet: 'w', side: 'YES', kind: 'buy', issuedAt: issued }))?.amount_raw).toBe(
        1_000_000n,
      );
      expect(await findQuote(db.db, { marketId: 'm1', wallet: 'w', side: 'NO', kind: 'buy', issuedAt: issued })).toBeUndefined();
    });

    it('refuses a second payment with the same signature and a second claim per market and wallet', async () => {
      const row = {
        id: randomUUID(),
        signature: 'sig-1',
        kind: 'buy' as const,
        market_id: 'm1',
        wallet: 'w',
        side: 'YES' as const,
        paid_raw: 1n,
        deliver_raw: 2n,
        quote_id: null,
        outbound_id: null,
        created_at: now(),
      };
      await insertPayment(db.db, row);
      const dup = await insertPayment(db.db, { ...row, id: randomUUID() }).catch((e: unknown) => e);
      expect(isUniqueViolation(dup)).toBe(true);
      expect((await findPaymentBySignature(db.db, 'sig-1'))?.deliver_raw).toBe(2n);
      const claim = {
        id: randomUUID(),
        market_id: 'm1',
        wallet: 'w',
        transfer_signature: 't-1',
        token_amount_raw: 5n,
        payout_raw: 3n,
        outbound_id: 'o',
        claimed_at: now(),
      };
      await insertClaim(db.db, claim);
      expect(
        isUniqueViolation(await insertClaim(db.db, { ...claim, id: randomUUID(), transfer_signature: 't-2' }).catch((e: unknown) => e)),
      ).toBe(true);
      expect((await findClaim(db.db, 'm1', 'w'))?.transfer_signature).toBe('t-1');
    });

    it('lets only one worker store rebuilt bytes for an intent', async () => {
      const id = randomUUID();
      await insertOutbound(db.db, { id, idempotencyKey: `k-${id}`, purpose: 'p', params: '{}', now: now() });
      const built = (signature: string) => ({ signature, rawTx: 'AA==', blockhash: 'bh', lastValidBlockHeight: 10, now: now() });
      expect(await storeBuilt(db.db, id, null, built('s1'))).toBe(true);
      expect(await storeBuilt(db.db, id, null, built('s2'))).toBe(false);
      expect(await storeBuilt(db.db, id, 's1', built('s3'))).toBe(true);
      expect(await storeBuilt(db.db, id, 's1', built('s4'))).toBe(false);
      expect((await findOutbound(db.db, id))?.last_valid_block_height).toBe(10n);
      expect((await listUnfinishedOutbound(db.db, new Date(Date.now() + 1000).toISOString(), 100)).map((r) => r.id)).toContain(id);
      await markOutbound(db.db, id, 'confirmed', { now: now(), bumpAttempts: true });
      await markOutbound(db.db, id, 'sent', { now: now() }); // a late writer cannot undo a confirmation
      const row = (await findOutbound(db.db, id))!;
      expect(row.status).toBe('confirmed');
      expect(row.attempts).toBe(1);
    });

    it('records a wait for funds without counting it as an attempt, and ends it once built', async () => {
      const id = randomUUID();
      await insertOutbound(db.db, { id, idempotencyKey: `k-${id}`, purpose: 'pay', params: '{}', now: now() });
      await markOutbound(db.db, id, 'pending', { now: now(), bumpAttempts: true }); // the sender counts on entry
      const first = '2030-01-01T00:00:00.000Z';
      await markAwaitingFunds(db.db, id, {
        reason: 'short by 5',
        shortfall: '{"missingRaw":"5"}',
        nextAttemptAt: '2030-01-01T00:00:05.000Z',
        now: first,
      });
      await markOutbound(db.db, id, 'pending', { now: now(), bumpAttempts: true });
      await markAwaitingFunds(db.db, id, {
        reason: 'short by 4',
        shortfall: '{"missingRaw":"4"}',
        nextAttemptAt: '2030-01-01T00:00:15.000Z',
        now: '2030-01-01T00:00:05.000Z',
      });
      const row = (await findOutbound(db.db, id))!;
      expect(row).toMatchObject({
        attempts: 0,
        funding_checks: 2,
        awaiting_funds_since: first,
        last_error: 'short by 4',
        next_attempt_at: '2030-01-01T00:00:15.000Z',
      });
      expect((await listAwaitingFunds(db.db, 100)).map((r) => r.id)).toContain(id);
      expect((await summarizeAwaitingFunds(db.db)).find((r) => r.purpose === 'pay')).toMatchObject({ oldest: first });
      const later = '2031-01-01T00:00:00.000Z';
      expect((await listUnfinishedOutbound(db.db, later, 100, '2030-01-01T00:00:10.000Z')).map((r) => r.id)).not.toContain(id);
      expect(await expediteAwaitingFunds(db.db, id, now())).toBe(true);
      expect((await listUnfinishedOutbound(db.db, later, 100, '2030-01-01T00:00:10.000Z')).map((r) => r.id)).toContain(id);
      expect(
        await storeBuilt(db.db, id, null, { signature: 's', rawTx: 'AA==', blockhash: 'b', lastValidBlockHeight: 1, now: now() }),
      ).toBe(true);
      expect(await findOutbound(db.db, id)).toMatchObject({ awaiting_funds_since: null, shortfall: null, next_attempt_at: null });
      expect(await expediteAwaitingFunds(db.db, id, now())).toBe(false);
    });
  });

describe.skipIf(!PG_AVAILABLE)('Family A on PostgreSQL', () => {
  let h: Harness;
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await postgresDatabase();
    h = await createHarness({ db });
  });
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  it('creates, searches, buys and refuses a replay', async () => {
    const m = await createMarket(h, { name: 'Postgres powered prediction', description: 'tsvector search' });
    const found = (await h.t.app.inject({ method: 'GET', url: '/v2/markets/search?q=POSTGRES%20predict' })).json().data;
    expect(found.markets.map((x: { slug: string }) => x.slug)).toEqual([m.slug]);
    const user = await fundedUser(h);
    const wallet = user.publicKey.toBase58();
    const q = (
      await h.t.app.inject({ method: 'POST', url: `/v2/markets/${m.slug}/trade/buy`, payload: { wallet, amount: 0.01, side: 'NO' } })
    ).json();
    const sig = await transfer(h, user, h.usdcMint, q.payment.payTo, 10_000n);
    const hdr = xPayment({
      txHash: sig,
      amount: 0.01,
      payer: wallet,
      payTo: q.payment.payTo,
      asset: h.usdcMint,
      quoteIssuedAt: q.quote.issuedAt,
    });
    const send = () =>
      h.t.app.inject({
        method: 'POST',
        url: `/v2/markets/${m.slug}/trade/buy`,
        headers: { 'x-payment': hdr },
        payload: { wallet, amount: 0.01, side: 'NO' },
      });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    expect(await tokenBalance(h, wallet, m.cas.No)).toBe(20_000_000n);
  });
});
