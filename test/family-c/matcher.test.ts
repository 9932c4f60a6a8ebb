/**
 * The matcher on a real SQLite database, without HTTP: group-committed batches, the fence (a
 * matcher whose market was taken over can never write to it again), a failed batch leaving book
 * and database as they were, and catching up with a market changed behind its back. Funds, holds,
 * give-backs and rebuilt books: matcher-funds.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_PROGRAM_ID } from '@pmx/programs';
import { DEFAULT_FEES } from '../../src/domain/orderbook/index.js';
import { reconcileStatuses } from '../../src/services/family-c/matcher/catch-up.js';
import { Matcher } from '../../src/services/family-c/matcher/matcher.js';
import { db, fund, insertMarket, log, marketId, matcher, order, useMatcherWorld, USDC_MINT } from './matcher.fixture.js';

useMatcherWorld();

describe('matcher', () => {
  it('commits a burst in batches and answers each caller with its own result', async () => {
    const m = matcher('a');
    await m.own(marketId);
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => m.submit({ kind: 'place', order: order(buyer, 'buy', 100 + i, 1_000_000n) })),
    );
    expect(results.every((r) => r.kind === 'place' && r.outcome.status === 'open')).toBe(true);
    expect(
      Number(
        (
          await db.db
            .selectFrom('clob_orders')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(50);
  });

  it('is fenced out once another matcher took the market over, and writes nothing more', async () => {
    const a = matcher('a');
    const b = matcher('b');
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    await a.own(marketId);
    await a.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 1_000_000n) });
    await b.own(marketId);
    await expect(a.submit({ kind: 'place', order: order(buyer, 'buy', 4100, 1_000_000n) })).rejects.toMatchObject({
      code: 'MARKET_NOT_OWNED',
    });
    expect(a.owns(marketId)).toBe(false);
    const rows = await db.db.selectFrom('clob_orders').select('price_bps').execute();
    expect(rows.map((r) => Number(r.price_bps))).toEqual([4000]);
    // The new owner rebuilt the book from the database and goes on from it.
    const out = (await b.submit({ kind: 'place', order: order(Keypair.generate(), 'sell', 4000, 1_000_000n) }).catch((e) => e)) as {
      code?: string;
    };
    expect(out.code).toBe('INSUFFICIENT_BALANCE'); // the seller holds no tokens: refused, nothing written
    expect(b.markets.get(marketId)!.book.top().bestBid.yes).toBe(4000);
  });

  it('fences all but the last of two matchers taking a market over at once', async () => {
    const a = matcher('a');
    const b = matcher('b');
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    // Interleaved on one database: each must fence with the epoch its own bump wrote.
    await Promise.all([a.own(marketId), b.own(marketId)]);
    expect(a.markets.get(marketId)!.epoch).not.toBe(b.markets.get(marketId)!.epoch);
    const results = await Promise.allSettled([
      a.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 1_000_000n) }),
      b.submit({ kind: 'place', order: order(buyer, 'buy', 4100, 1_000_000n) }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'MARKET_NOT_OWNED' } });
    expect(await db.db.selectFrom('clob_orders').select('id').execute()).toHaveLength(1);
  });

  it('takes a round of markets over with one epoch commit, refusing an unknown one, and fences their old holder', async () => {
    const second = await insertMarket();
    const unknown = randomUUID();
    const a = matcher('a');
    const b = matcher('b');
    await a.own(marketId);
    const failed = await b.ownMany([second, unknown, marketId]);
    expect([...failed.keys()]).toEqual([unknown]);
    expect(failed.get(unknown)!.message).toMatch(/unknown orderbook market/);
    expect(b.owns(marketId) && b.owns(second)).toBe(true);
    const epochs = await db.db.selectFrom('clob_markets').select(['market_id', 'matcher_epoch', 'matcher_node']).execute();
    const byId = new Map(epochs.map((r) => [r.market_id, r]));
    expect(BigInt(byId.get(marketId)!.matcher_epoch)).toBe(a.markets.get(marketId)!.epoch + 1n); // a's bump, then b's
    expect(byId.get(marketId)!.matcher_node).toBe('b');
    expect(b.markets.get(marketId)!.epoch).toBe(BigInt(byId.get(marketId)!.matcher_epoch));
    expect(b.markets.get(second)!.epoch).toBe(BigInt(byId.get(second)!.matcher_epoch));
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    await expect(a.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 1_000_000n) })).rejects.toMatchObject({
      code: 'MARKET_NOT_OWNED',
    });
    expect(await b.ownMany([marketId])).toEqual(new Map()); // owned already: nothing bumped again
  });

  it('batches every operation submitted in one turn of the event loop (one commit); a later one goes in the next batch', async () => {
    let batches = 0; // the matcher reads its clock once per batch
    const m = new Matcher({
      db: db.db,
      log,
      programId: EXCHANGE_PROGRAM_ID,
      usdcMint: USDC_MINT.toBase58(),
      fees: DEFAULT_FEES,
      nodeId: 'a',
      now: () => Date.parse('2026-01-01T00:00:00Z') + ++batches * 1000,
    });
    await m.own(marketId);
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    const before = batches;
    await Promise.all([4000, 3990, 3980].map((price) => m.submit({ kind: 'place', order: order(buyer, 'buy', price, 1_000_000n) })));
    expect(batches - before).toBe(1);
    await m.submit({ kind: 'place', order: order(buyer, 'buy', 3970, 1_000_000n) });
    expect(batches - before).toBe(2);
    const rows = await db.db.selectFrom('clob_orders').select(['price_bps', 'created_at']).orderBy('price_bps', 'desc').execute();
    expect(new Set(rows.slice(0, 3).map((r) => r.created_at)).size).toBe(1);
    expect(rows[3]!.created_at).not.toBe(rows[0]!.created_at);
  });

  it('restores the status of the markets of a failed batch from the database', async () => {
    const m = matcher('a');
    await m.own(marketId);
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    // Submitted in one turn, two operations share a batch: an order whose expiry overflows the
    // 64-bit column, failing the commit, and a pause (in memory at once).
    const poisoned = m.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 1_000_000n, { expiry: 2 ** 63, timeInForce: 'ioc' }) });
    const paused = m.submit({ kind: 'status', marketId, status: 'paused' });
    await expect(paused).rejects.toMatchObject({ code: 'MATCHER_UNAVAILABLE' });
    await expect(poisoned).rejects.toMatchObject({ code: 'MATCHER_UNAVAILABLE' });
    // Nothing of the batch was kept: the database still says active, and so does the matcher.
    expect(m.markets.get(marketId)!.status).toBe('active');
    const placed = await m.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 1_000_000n) });
    expect(placed).toMatchObject({ kind: 'place', outcome: { status: 'open' } });
  });

  it('catches up with a market resolved behind its back, also when it takes the market over', async () => {
    const a = matcher('a');
    await a.own(marketId);
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    await a.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 1_000_000n) });
    expect(await reconcileStatuses(a, db.db)).toEqual([]); // in step: nothing to do
    // The catch-up operation applies the status the database holds when it runs, not an older read.
    const setStatus = (status: string) => db.db.updateTable('markets').set({ status }).where('id', '=', marketId).execute();
    await setStatus('paused');
    await a.submit({ kind: 'syncStatus', marketId });
    expect(a.markets.get(marketId)).toMatchObject({ status: 'paused' });
    await setStatus('active');
    await a.submit({ kind: 'syncStatus', marketId });
    expect(a.markets.get(marketId)).toMatchObject({ status: 'active' });
    // The indexer records the resolution, but the notification never reaches the matcher.
    const resolve = () => db.db.updateTable('markets').set({ status: 'resolved' }).where('id', '=', marketId).execute();
    await resolve();
    expect(await reconcileStatuses(a, db.db)).toEqual([marketId]);
    expect(a.markets.get(marketId)).toMatchObject({ status: 'resolved' });
    expect(a.markets.get(marketId)!.book.index.size).toBe(0);
    expect(await db.db.selectFrom('clob_orders').select('status').execute()).toEqual([{ status: 'cancelled' }]);
    expect(await reconcileStatuses(a, db.db)).toEqual([]);

    // A market resolved while orders rested and no matcher heard of it: the next owner cancels them.
    await db.db.updateTable('markets').set({ status: 'active' }).where('id', '=', marketId).execute();
    expect(await reconcileStatuses(a, db.db)).toEqual([marketId]);
    await a.submit({ kind: 'place', order: order(buyer, 'buy', 4100, 1_000_000n) });
    await resolve();
    const b = matcher('b');
    await b.own(marketId);
    expect(b.markets.get(marketId)).toMatchObject({ status: 'resolved' });
    expect(await reconcileStatuses(b, db.db)).toEqual([marketId]);
    expect(b.markets.get(marketId)!.book.index.size).toBe(0);
    expect(await db.db.selectFrom('clob_orders').select('status').execute()).toEqual([{ status: 'cancelled' }, { status: 'cancelled' }]);
  });
});
