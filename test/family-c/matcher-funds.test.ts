/**
 * The matcher's funds on a real SQLite database, without HTTP: refusing what an owner cannot fund,
 * the holds ledger against the unsettled fills, a failed fill's quantity given back once, a
 * rebuilt book answering as the one before, and uncovered orders cancelled through another node.
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import { addOwnerHolds, ownerHoldRows, unsettledFillsOf } from '../../db/repositories/clob-commitments.repository.js';
import { markGiveBacks, normalizeFill } from '../../db/repositories/clob-fills.repository.js';
import { findEscrowTokenAddress, findUserEscrowPda } from '@pmx/programs';
import { DEFAULT_FEES, fillHolds, OrderBook, ownerHolds } from '../../src/domain/orderbook/index.js';
import { applyGiveBacks } from '../../src/services/family-c/matcher/catch-up.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { QueueMatcherPort, startMatcherQueueWorker } from '../../jobs/matcher-queue.js';
import { LocalMatcherPort } from '../../src/services/family-c/matcher/local-matcher.port.js';
import type { PlaceOutcome } from '../../src/services/family-c/matcher/matcher-types.js';
import { Redis } from 'ioredis';
import { db, fund, fundYes, log, marketId, matcher, order, useMatcherWorld, USDC_MINT } from './matcher.fixture.js';

useMatcherWorld();

describe('matcher: funds and holds', () => {
  it('refuses what the owner cannot fund, and counts resting commitments and other refusals in the same batch', async () => {
    const m = matcher('a');
    await m.own(marketId);
    const buyer = Keypair.generate();
    // 5 USDC: a bid of 10 tokens at 4000 commits 4 USDC and needs 4_000_001 + fee 10_001 = 4_010_002.
    await fund(buyer, 5_000_000n);
    const [first, second] = await Promise.allSettled([
      m.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 10_000_000n) }),
      m.submit({ kind: 'place', order: order(buyer, 'buy', 4000, 10_000_000n) }),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({
      status: 'rejected',
      reason: { code: 'INSUFFICIENT_BALANCE', extra: { available: '1000000', required: '4010002' } },
    });
  });

  it('keeps the holds ledger equal to what the unsettled fills hold', async () => {
    const m = matcher('a');
    await m.own(marketId);
    const buyer = Keypair.generate();
    const seller = Keypair.generate();
    await fund(buyer, 10n ** 12n);
    await fundYes(seller, 10n ** 12n);
    for (let i = 0; i < 10; i++) await m.submit({ kind: 'place', order: order(buyer, 'buy', 5000 + i, 3_333_333n) });
    await m.submit({ kind: 'place', order: order(seller, 'sell', 5000, 25_000_000n, { timeInForce: 'ioc' }) });
    for (const owner of [buyer, seller].map((k) => k.publicKey.toBase58())) {
      const fromRows = ownerHolds(owner, [], await unsettledFillsOf(db.db, owner));
      const ledger = await ownerHoldRows(db.db, owner);
      expect(ledger.reduce((s, h) => s + h.usdc, 0n)).toBe(fromRows.usdc);
      expect(ledger.find((h) => h.marketId === marketId)?.yes ?? 0n).toBe(fromRows.markets.get(marketId)?.yes ?? 0n);
    }
    expect((await ownerHoldRows(db.db, seller.publicKey.toBase58()))[0]!.yes).toBe(25_000_000n);
  });

  it("gives a failed fill's quantity back to the resting order once, only while it rests and its owner can cover it", async () => {
    const m = matcher('a');
    await m.own(marketId);
    const buyer = Keypair.generate();
    const seller = Keypair.generate();
    await fundYes(seller, 10n ** 12n);
    await fund(buyer, 10_000_000n); // the bid of 10 YES at 6000 commits 6 USDC
    const bid = order(buyer, 'buy', 6000, 10_000_000n);
    await m.submit({ kind: 'place', order: bid });
    for (const q of [3_000_000n, 2_000_000n, 1_000_000n])
      await m.submit({ kind: 'place', order: order(seller, 'sell', 6000, q, { timeInForce: 'ioc' }) });
    const fills = await db.db.selectFrom('clob_fills').selectAll().orderBy('seq').execute();
    expect(fills.map((f) => [f.maker_order_id, BigInt(f.quantity)])).toEqual([
      [bid.id, 3_000_000n],
      [bid.id, 2_000_000n],
      [bid.id, 1_000_000n],
    ]);
    // As the keeper does when the seller cannot deliver: the fill fails, its holds go, the bid is named.
    const failAndMark = async (f: (typeof fills)[number]) => {
      await db.db.updateTable('clob_fills').set({ status: 'failed_insufficient_balance' }).where('id', '=', f.id).execute();
      await addOwnerHolds(db.db, fillHolds(normalizeFill(f)), -1n);
      await markGiveBacks(db.db, [{ fillId: f.id, orderId: f.maker_order_id }]);
    };
    const book = () => m.markets.get(marketId)!.book;
    const giveBack = async (id: string) =>
      (await db.db.selectFrom('clob_fills').select('give_back').where('id', '=', id).executeTakeFirstOrThrow()).give_back;
    expect(book().get(bid.id)?.remaining).toBe(4_000_000n);

    await failAndMark(fills[0]!);
    expect(await applyGiveBacks(m, db.db)).toBe(1);
    await m.idle();
    expect(book().get(bid.id)).toMatchObject({ remaining: 7_000_000n, notional: 3_000_000n * 6000n, usdc: 1_800_000n });
    const row = await db.db
      .selectFrom('clob_orders')
      .select(['remaining', 'status', 'committed'])
      .where('id', '=', bid.id)
      .executeTakeFirstOrThrow();
    expect({ remaining: BigInt(row.remaining), status: row.status, committed: BigInt(row.committed) }).toEqual({
      remaining: 7_000_000n,
      status: 'partially_filled',
      committed: 4_200_000n,
    });
    expect(await giveBack(fills[0]!.id)).toBe('restored');
    // Once: a second round finds nothing, and a duplicate operation changes nothing.
    expect(await applyGiveBacks(m, db.db)).toBe(0);
    await m.submit({
      kind: 'giveBack',
      marketId,
      fills: [{ fillId: fills[0]!.id, orderId: bid.id, quantity: 3_000_000n, notional: 0n, usdc: 0n }],
    });
    expect(book().get(bid.id)?.remaining).toBe(7_000_000n);

    // The buyer spent the money meanwhile: 5 USDC left, the bid commits 4.2 and holds 0.6 for the
    // last fill, so the 1.2 more the second give-back needs are not there.
    await upsertTokenAccounts(db.db, [
      {
        address: findEscrowTokenAddress(buyer.publicKey, USDC_MINT).toBase58(),
        mint: USDC_MINT.toBase58(),
        owner: findUserEscrowPda(buyer.publicKey)[0].toBase58(),
        amount: 5_000_000n,
        slot: 2n,
      },
    ]);
    await failAndMark(fills[1]!);
    expect(await applyGiveBacks(m, db.db)).toBe(1);
    await m.idle();
    expect(await giveBack(fills[1]!.id)).toBe('not_covered');
    expect(book().get(bid.id)?.remaining).toBe(7_000_000n);

    // Cancelled between the keeper's mark and the matcher's round: nothing rests to give back to.
    await failAndMark(fills[2]!);
    expect(await giveBack(fills[2]!.id)).toBe('pending');
    await m.submit({ kind: 'cancel', marketId, orderId: bid.id });
    expect(await applyGiveBacks(m, db.db)).toBe(1);
    await m.idle();
    expect(await giveBack(fills[2]!.id)).toBe('not_resting');
    expect(book().get(bid.id)).toBeUndefined();
    // Marked when the order no longer rests: it ends at once, for no matcher to wait on.
    const fourth = order(seller, 'sell', 6000, 1_000_000n);
    await m.submit({ kind: 'place', order: fourth });
    await m.submit({ kind: 'place', order: order(buyer, 'buy', 6000, 1_000_000n, { timeInForce: 'ioc' }) });
    const last = await db.db.selectFrom('clob_fills').selectAll().where('maker_order_id', '=', fourth.id).executeTakeFirstOrThrow();
    await markGiveBacks(db.db, [{ fillId: last.id, orderId: last.taker_order_id }]);
    expect(await giveBack(last.id)).toBe('not_resting');
  });

  it('rebuilds a book identical to the one it had (same fills for the same next order)', async () => {
    const m = matcher('a');
    await m.own(marketId);
    const buyers = [Keypair.generate(), Keypair.generate()];
    for (const b of buyers) await fund(b, 1_000_000_000n);
    for (let i = 0; i < 20; i++)
      await m.submit({ kind: 'place', order: order(buyers[i % 2]!, 'buy', 3000 + (i % 5) * 10, BigInt(1 + i) * 333_333n) });
    const before = m.markets.get(marketId)!.book.depth(100);
    const rebuilt = matcher('b');
    await rebuilt.own(marketId);
    expect(rebuilt.markets.get(marketId)!.book.depth(100)).toEqual(before);
    // The same taker against the original book (restored in memory from its own snapshot) and
    // against the one rebuilt from the database: identical fills, money included.
    const request = {
      id: randomUUID(),
      owner: Keypair.generate().publicKey.toBase58(),
      side: 'sell' as const,
      outcome: 'yes' as const,
      priceBps: 3000,
      quantity: 50_000_000n,
      timeInForce: 'ioc' as const,
      expiry: 0,
    };
    const original = OrderBook.restore({ marketId, fees: DEFAULT_FEES }, m.markets.get(marketId)!.book.snapshot()).place(request);
    const fromDb = rebuilt.markets.get(marketId)!.book.place(request);
    expect(fromDb.fills.length).toBeGreaterThan(3);
    expect(fromDb.fills).toEqual(original.fills);
  });

  it("cancels uncovered orders named by the index through another node's queue, with their reason, skipping those gone", async () => {
    const m = matcher('owner-node');
    await m.own(marketId);
    const buyer = Keypair.generate();
    await fund(buyer, 1_000_000_000n);
    const placed = [];
    for (const price of [3000, 4000, 5000])
      placed.push((await m.submit({ kind: 'place', order: order(buyer, 'buy', price, 1_000_000n) })) as PlaceOutcome);
    const [oldest, middle, newest] = placed.map((p) => p.order.id) as [string, string, string];
    await m.submit({ kind: 'cancel', marketId, orderId: middle }); // gone before the index's cancel arrives
    const prefix = uniquePrefix('matcher-queue');
    const redis = [0, 1, 2].map(() => new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }));
    const worker = startMatcherQueueWorker({ node: 'owner-node', connection: redis[0]!, prefix, port: new LocalMatcherPort(m), log });
    const remote = new QueueMatcherPort('owner-node', redis[1]!, redis[2]!, prefix, 5_000);
    try {
      // Malformed payloads (the reason is the schema's, not any string) are refused and change nothing.
      const raw = remote as unknown as { call(data: unknown): Promise<unknown> };
      for (const bad of [
        { op: 'cancelOrders', marketId, orderIds: [newest] },
        { op: 'cancelOrders', marketId, orderIds: [newest], reason: 'expired' }, // the book's own reason, never a list's
        { op: 'placeMany', marketId, orders: [] },
        { op: 'replace', oldOrderId: newest },
        { op: 'cancelOrders', marketId, orderIds: Array.from({ length: 501 }, () => newest), reason: 'insufficient_balance' },
        { op: 'cancelOrders', marketId, orderIds: newest, reason: 'invalid_signature' },
      ])
        await expect(raw.call(bad)).rejects.toMatchObject({ code: 'INVALID_JOB' });
      // A status the program does not have is refused where it leaves the queue, not stored as the market's.
      await expect(raw.call({ op: 'status', marketId, status: 'closed' })).rejects.toMatchObject({ code: 'INVALID_STATUS' });
      expect(m.markets.get(marketId)!.status).toBe('active');
      expect(m.markets.get(marketId)!.book.get(newest)).toBeDefined();
      // A place job carries the accepted order as its schema says (u64s as decimal strings, the
      // message as lowercase hex): anything else is refused before the matcher sees it.
      const good = order(buyer, 'buy', 4500, 1_000_000n);
      const { signature: _unsigned, ...unsigned } = good;
      for (const bad of [
        { op: 'place', order: { ...good, quantity: 1_000_000 } },
        { op: 'place', order: { ...good, nonce: '-1' } },
        { op: 'place', order: { ...good, side: 'long' } },
        { op: 'place', order: { ...good, priceBps: 0 } },
        { op: 'place', order: { ...good, message: good.message.toUpperCase() } },
        { op: 'place', order: unsigned },
        { op: 'place', order: 'not an order' },
      ])
        await expect(raw.call(bad)).rejects.toMatchObject({ code: 'INVALID_JOB' });
      expect(m.markets.get(marketId)!.book.get(good.id)).toBeUndefined();
      // The order as acceptOrder makes it crosses the queue and rests.
      expect(await remote.place(good)).toMatchObject({ orderId: good.id, status: 'open', filledQuantity: '0' });
      expect(m.markets.get(marketId)!.book.get(good.id)).toBeDefined();
      expect(await remote.cancelOrders(marketId, [newest, middle], 'insufficient_balance')).toEqual({ cancelled: [newest] });
      const rows = await db.db
        .selectFrom('clob_orders')
        .select(['id', 'status', 'cancel_reason', 'committed'])
        .where('id', 'in', [oldest, middle, newest])
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(newest)).toMatchObject({ status: 'cancelled', cancel_reason: 'insufficient_balance' });
      expect(Number(byId.get(newest)!.committed)).toBe(0);
      expect(byId.get(middle)).toMatchObject({ status: 'cancelled', cancel_reason: 'user' });
      expect(byId.get(oldest)).toMatchObject({ status: 'open' });
      expect(m.markets.get(marketId)!.book.get(newest)).toBeUndefined();

      // Issue 30's operations cross the queue too: several orders in one operation (each its
      // placement or its refusal), a replace, and an owner's cancel with the service's reason.
      const a = order(buyer, 'buy', 3100, 1_000_000n);
      const many = await remote.placeMany(marketId, [a, { ...order(buyer, 'buy', 3200, 1_000_000n), nonce: a.nonce }]);
      expect(many).toEqual([
        { placement: expect.objectContaining({ orderId: a.id, status: 'open' }) },
        { error: expect.objectContaining({ code: 'DUPLICATE_NONCE', kind: 'invalid' }) },
      ]);
      const next = order(buyer, 'buy', 3300, 1_000_000n);
      expect(await remote.replace(a.id, next)).toMatchObject({ orderId: next.id, status: 'open' });
      expect(m.markets.get(marketId)!.book.get(a.id)).toBeUndefined();
      await expect(remote.replace(a.id, order(buyer, 'buy', 3400, 1_000_000n))).rejects.toMatchObject({ code: 'ORDER_NOT_RESTING' });
      const swept = await remote.cancelOwner(marketId, buyer.publicKey.toBase58(), 'heartbeat_expired');
      expect(swept.cancelled.sort()).toEqual([oldest, good.id, next.id].sort());
      const reasons = await db.db.selectFrom('clob_orders').select('cancel_reason').where('id', 'in', swept.cancelled).execute();
      expect(reasons.map((r) => r.cancel_reason)).toEqual(['heartbeat_expired', 'heartbeat_expired', 'heartbeat_expired']);
    } finally {
      await remote.close();
      await worker.close();
      for (const r of redis) r.disconnect();
      await deleteKeys(prefix);
    }
  });
});
