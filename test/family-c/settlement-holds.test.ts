/**
 * A batch's outcome can be recorded by several callers at once (the sender's confirmation, the
 * sweep, a rebuild that finds every receipt): whichever wins, a fill ends once and what it held is
 * released once. On PostgreSQL the two confirmations are made to overlap: one waits inside its
 * transaction (holding the fill) while the other has already read the fill as in flight.
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { type Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { addOwnerHolds } from '../../db/repositories/clob-commitments.repository.js';
import { endFills, markRetrying, redriveFill } from '../../db/repositories/clob-settlement.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ChainClient } from '../../src/chain/chain-client.js';
import { EXCHANGE_PROGRAM_ID } from '@pmx/programs';
import { fillHolds } from '../../src/domain/orderbook/index.js';
import type { FamilyCContext } from '../../src/services/family-c/context.js';
import type { ClobEventBus } from '../../src/services/family-c/events/event-bus.js';
import type { KeeperDeps } from '../../src/services/family-c/settlement/keeper.deps.js';
import { confirmBatch, failUnbatched } from '../../src/services/family-c/settlement/settle-outcomes.js';
import { PlanRequests } from '../../src/services/family-c/settlement/plan-requests.js';
import { ProofsInFlight } from '../../src/services/family-c/settlement/proofs-in-flight.js';
import { DIALECTS } from '../helpers/databases.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { MAKER, TAKER, fillRow, chainWithReceipts, seed, holdsOf, whileHeld, withBatchLocked } from './settlement-holds.fixture.js';

/** These tests plan nothing: the keeper's requests need a Redis, never connected here. */
const unusedRedis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
afterAll(() => unusedRedis.disconnect());

function keeper(db: DatabaseHandle, chain: ChainClient): KeeperDeps {
  const c = {
    db: db.db,
    chain,
    programId: EXCHANGE_PROGRAM_ID,
    usdcMint: Keypair.generate().publicKey,
    log: pino({ level: 'silent' }),
    metrics: createMetrics().clob,
  } as unknown as FamilyCContext;
  const bus = { publishUser: async () => undefined, publishMarket: async () => undefined } as unknown as ClobEventBus;
  return {
    c,
    bus,
    log: pino({ level: 'silent' }),
    fees: { takerFeeBps: 25n, makerRebateBps: 5n },
    maxBatchesInFlight: 8,
    proofsInFlight: new ProofsInFlight(),
    planRequests: new PlanRequests(unusedRedis, 'unused'),
    holdAccountChanges: () => () => undefined,
    afterSettlement: async () => undefined,
    cancelOwnerEverywhere: async () => undefined,
    cancelOrder: async () => undefined,
  };
}

describe.each(DIALECTS)('settlement holds on $name', ({ name, available, open }) => {
  it.skipIf(!available)('a fill ends once: a second endFills of the same batch moves nothing', async () => {
    const db = await open();
    try {
      const { batchId, fillId } = await seed(db);
      const now = new Date().toISOString();
      expect(await endFills(db.db, batchId, [fillId], { status: 'settled', now })).toEqual([fillId]);
      expect(await endFills(db.db, batchId, [fillId], { status: 'settled', now })).toEqual([]);
      expect(await endFills(db.db, randomUUID(), [fillId], { status: 'failed', failureReason: 'x', now })).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it.skipIf(!available)(
    "confirming a batch twice at once releases its fill's holds once",
    async () => {
      const db = await open();
      try {
        const { batchId, fillId, otherId } = await seed(db);
        const k = keeper(db, chainWithReceipts([fillId]));
        const twice = () => Promise.all([confirmBatch(k, batchId, 'sig-sender'), confirmBatch(k, batchId, 'sig-sweep')]);
        if (name === 'postgres') await withBatchLocked(db, batchId, twice);
        else await twice();

        const fills = await db.db.selectFrom('clob_fills').select(['id', 'status']).where('id', 'in', [fillId, otherId]).execute();
        expect(Object.fromEntries(fills.map((f) => [f.id, f.status]))).toEqual({ [fillId]: 'settled', [otherId]: 'matched' });
        // What is left held is exactly the other (still matched) fill's hold: never less, never negative.
        expect(await holdsOf(db, TAKER)).toEqual({ usdc: 6_015_000n, yes: 0n, no: 0n });
        expect(await holdsOf(db, MAKER)).toEqual({ usdc: 0n, yes: 10_000_000n, no: 0n });
        // The metrics count the one batch and the one fill once too.
        const counted = await k.c.metrics.settleTransactions.get();
        expect(counted.values).toEqual([{ labels: { outcome: 'confirmed' }, value: 1 }]);
        expect((await k.c.metrics.settleLatency.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value).toBe(1);
      } finally {
        await db.close();
      }
    },
    30_000,
  );

  it.skipIf(!available)(
    "the sweep's retrying mark never moves a fill the confirmation settled meanwhile",
    async () => {
      const db = await open();
      try {
        const { batchId, fillId } = await seed(db);
        const now = new Date().toISOString();
        const settle = (d: Kysely<Database>) =>
          d.updateTable('clob_fills').set({ status: 'settled', settled_at: now }).where('id', '=', fillId).execute();
        let marked: string[];
        if (name === 'postgres') {
          // The confirmation holds the fill (settled, not yet committed) while the sweep marks the
          // batch: the mark waits for the row and must see it settled once it gets it.
          marked = await whileHeld(db, settle, () => markRetrying(db.db, batchId, 2, 'blockhash expired', now), 1);
        } else {
          await settle(db.db);
          marked = await markRetrying(db.db, batchId, 2, 'blockhash expired', now);
        }
        expect(marked).toEqual([]);
        const row = await db.db
          .selectFrom('clob_fills')
          .select(['status', 'retry_count'])
          .where('id', '=', fillId)
          .executeTakeFirstOrThrow();
        expect({ status: row.status, retryCount: Number(row.retry_count) }).toEqual({ status: 'settled', retryCount: 0 });
      } finally {
        await db.close();
      }
    },
    30_000,
  );

  it.skipIf(!available)('a re-drive forgets a give-back that changed nothing, and refuses one that did', async () => {
    const db = await open();
    try {
      const { fillId, otherId } = await seed(db);
      const now = new Date().toISOString();
      const fail = (id: string, giveBack: 'not_covered' | 'restored') =>
        db.db
          .updateTable('clob_fills')
          .set({ status: 'failed_insufficient_balance', give_back: giveBack, give_back_order_id: randomUUID() })
          .where('id', '=', id)
          .execute();
      await fail(fillId, 'not_covered');
      await fail(otherId, 'restored');
      expect(await redriveFill(db.db, fillId, now)).toBe(true);
      expect(await redriveFill(db.db, otherId, now)).toBe(false);
      const rows = await db.db
        .selectFrom('clob_fills')
        .select(['id', 'status', 'give_back', 'give_back_order_id'])
        .where('id', 'in', [fillId, otherId])
        .orderBy('seq')
        .execute();
      expect(rows.map((r) => [r.status, r.give_back, r.give_back_order_id === null])).toEqual([
        ['matched', null, true],
        ['failed_insufficient_balance', 'restored', false],
      ]);
    } finally {
      await db.close();
    }
  });

  it.skipIf(!available)("the retrying mark moves the batch's in-flight fills once per attempt count", async () => {
    const db = await open();
    try {
      const { batchId, fillId, otherId } = await seed(db);
      const now = new Date().toISOString();
      expect(await markRetrying(db.db, batchId, 1, 'not confirmed in time', now)).toEqual([fillId]);
      expect(await markRetrying(db.db, batchId, 1, 'not confirmed in time', now)).toEqual([]);
      expect(await markRetrying(db.db, batchId, 2, 'blockhash expired', now)).toEqual([fillId]);
      const rows = await db.db
        .selectFrom('clob_fills')
        .select(['id', 'status', 'retry_count', 'failure_reason'])
        .where('id', 'in', [fillId, otherId])
        .orderBy('seq')
        .execute();
      expect(rows.map((r) => ({ ...r, retry_count: Number(r.retry_count) }))).toEqual([
        { id: fillId, status: 'retrying', retry_count: 2, failure_reason: 'blockhash expired' },
        { id: otherId, status: 'matched', retry_count: 0, failure_reason: null },
      ]);
    } finally {
      await db.close();
    }
  });

  it.skipIf(!available)(
    'failing unbatched fills (their market resolved) ends only the matched ones and releases exactly their holds, once',
    async () => {
      const db = await open();
      try {
        const { fillId, otherId } = await seed(db);
        // A third matched fill of the same owners, so one release covers several fills.
        const third = fillRow(randomUUID(), 3, 'matched', null);
        await db.db.insertInto('clob_fills').values(third).execute();
        await addOwnerHolds(db.db, fillHolds(third), 1n);
        const rows = await db.db
          .selectFrom('clob_fills')
          .selectAll()
          .where('id', 'in', [fillId, otherId, third.id])
          .orderBy('seq')
          .execute();
        const k = keeper(db, chainWithReceipts([]));
        // Holds of the three fills: the taker 3 × 6.015 USDC, the maker 3 × 10 YES.
        expect(await holdsOf(db, TAKER)).toEqual({ usdc: 18_045_000n, yes: 0n, no: 0n });

        await failUnbatched(k, rows, 'MarketResolved: the market resolved before the fill settled');
        await failUnbatched(k, rows, 'MarketResolved: again'); // nothing left to end: nothing released twice

        const after = await db.db
          .selectFrom('clob_fills')
          .select(['id', 'status', 'failure_reason'])
          .where('id', 'in', [fillId, otherId, third.id])
          .orderBy('seq')
          .execute();
        expect(after).toEqual([
          { id: fillId, status: 'settling', failure_reason: null }, // in a batch: not this path's to end
          { id: otherId, status: 'failed', failure_reason: 'MarketResolved: the market resolved before the fill settled' },
          { id: third.id, status: 'failed', failure_reason: 'MarketResolved: the market resolved before the fill settled' },
        ]);
        // What is left held is the settling fill's alone.
        expect(await holdsOf(db, TAKER)).toEqual({ usdc: 6_015_000n, yes: 0n, no: 0n });
        expect(await holdsOf(db, MAKER)).toEqual({ usdc: 0n, yes: 10_000_000n, no: 0n });
      } finally {
        await db.close();
      }
    },
  );
});
