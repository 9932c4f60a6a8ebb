/**
 * A batch's outcome can be recorded by several callers at once (the sender's confirmation, the
 * sweep, a rebuild that finds every receipt): whichever wins, a fill ends once and what it held is
 * released once. On PostgreSQL the two confirmations are made to overlap: one waits inside its
 * transaction (holding the fill) while the other has already read the fill as in flight.
 */
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { addOwnerHolds, ownerHoldRows } from '../../db/repositories/clob-commitments.repository.js';
import { endFills, markRetrying, redriveFill } from '../../db/repositories/clob-settlement.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { AccountSnapshot, ChainClient } from '../../src/chain/chain-client.js';
import { encodeFillReceipt, EXCHANGE_PROGRAM_ID, findFillReceiptPda } from '@pmx/programs';
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

const MAKER = Keypair.generate().publicKey.toBase58();
const TAKER = Keypair.generate().publicKey.toBase58();
const MARKET = randomUUID();

/** A direct fill: the taker buys 10 YES at 6000 from the maker (taker holds 6.015 USDC, the maker 10 YES). */
function fillRow(id: string, seq: number, status: 'matched' | 'settling', batchId: string | null) {
  const now = new Date().toISOString();
  return {
    id,
    market_id: MARKET,
    seq: BigInt(seq),
    maker_order_id: randomUUID(),
    taker_order_id: randomUUID(),
    maker_owner: MAKER,
    taker_owner: TAKER,
    taker_side: 'buy' as const,
    outcome: 'yes' as const,
    price_bps: 6000,
    maker_side: 'sell' as const,
    maker_outcome: 'yes' as const,
    maker_price_bps: 6000,
    fill_type: 'direct' as const,
    quantity: 10_000_000n,
    usdc_amount: 6_000_000n,
    maker_usdc: 5_988_000n,
    taker_fee: 15_000n,
    maker_rebate: 3_000n,
    protocol_fee: 12_000n,
    rounding_dust: 0n,
    status,
    retry_count: 0,
    failure_reason: null,
    batch_id: batchId,
    settle_tx: null,
    positions_applied: 0,
    matched_at: now,
    settled_at: null,
    updated_at: now,
  };
}

/** A chain where the receipts of `landed` exist (as the program writes them) and nothing else does. */
function chainWithReceipts(landed: string[]): ChainClient {
  const receipts = new Map(landed.map((id) => [findFillReceiptPda(id, EXCHANGE_PROGRAM_ID)[0].toBase58(), id]));
  return {
    async getMultipleAccounts(addresses: string[]): Promise<(AccountSnapshot | null)[]> {
      return addresses.map((address) => {
        const id = receipts.get(address);
        if (!id) return null;
        const data = encodeFillReceipt({
          fillUuid: Buffer.from(id.replace(/-/g, ''), 'hex'),
          market: Keypair.generate().publicKey,
          takerOrder: Keypair.generate().publicKey,
          makerOrder: Keypair.generate().publicKey,
          fillType: 'direct',
          bump: 255,
          priceBps: 6000,
          quantity: 10_000_000n,
          takerUsdc: 6_000_000n,
          makerUsdc: 5_988_000n,
          takerFee: 15_000n,
          makerRebate: 3_000n,
          protocolFee: 12_000n,
          roundingDust: 0n,
          slot: 10n,
          settledAt: 0n,
        });
        return { address, owner: EXCHANGE_PROGRAM_ID.toBase58(), lamports: 1n, data, executable: false, slot: 10 };
      });
    },
  } as unknown as ChainClient;
}

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

/** A batch carrying one settling fill, plus another matched fill of the same owners; both hold. */
async function seed(db: DatabaseHandle): Promise<{ batchId: string; fillId: string; otherId: string }> {
  const batchId = randomUUID();
  const fillId = randomUUID();
  const otherId = randomUUID();
  const now = new Date().toISOString();
  await db.db
    .insertInto('clob_settlement_batches')
    .values({
      id: batchId,
      market_id: MARKET,
      outbound_id: randomUUID(),
      status: 'pending',
      fill_count: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db.db.insertInto('clob_batch_fills').values({ batch_id: batchId, fill_id: fillId, position: 0 }).execute();
  for (const row of [fillRow(fillId, 1, 'settling', batchId), fillRow(otherId, 2, 'matched', null)]) {
    await db.db.insertInto('clob_fills').values(row).execute();
    await addOwnerHolds(db.db, fillHolds(row), 1n);
  }
  return { batchId, fillId, otherId };
}

/** What each owner's fill holds add up to in this market. */
async function holdsOf(db: DatabaseHandle, owner: string) {
  const row = (await ownerHoldRows(db.db, owner)).find((r) => r.marketId === MARKET);
  return { usdc: row?.usdc ?? 0n, yes: row?.yes ?? 0n, no: row?.no ?? 0n };
}

/**
 * PostgreSQL: runs `body` while a transaction holds what `hold` locked, and lets that transaction
 * commit only once `waiters` backends wait behind it (directly or behind one that does).
 */
async function whileHeld<T>(
  db: DatabaseHandle,
  hold: (trx: Kysely<Database>) => Promise<unknown>,
  body: () => Promise<T>,
  waiters: number,
): Promise<T> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holderPid!: number;
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = db.db.transaction().execute(async (trx) => {
    await hold(trx);
    holderPid = (await sqlPid(trx)).rows[0]!.pid;
    locked();
    await gate;
  });
  await lockTaken;
  const work = body();
  const deadline = Date.now() + 10_000;
  while ((await blockedBehind(db, holderPid)).rows[0]!.n < waiters) {
    if (Date.now() > deadline) throw new Error(`fewer than ${waiters} backends ever waited behind the holder`);
    await new Promise((r) => setTimeout(r, 20));
  }
  release();
  await holder;
  return work;
}

/** The first confirmation waits for the batch row (holding the fill); the second waits for the fill. */
function withBatchLocked(db: DatabaseHandle, batchId: string, body: () => Promise<unknown>): Promise<unknown> {
  return whileHeld(
    db,
    (trx) => trx.selectFrom('clob_settlement_batches').select('id').where('id', '=', batchId).forUpdate().execute(),
    body,
    2,
  );
}

function sqlPid(trx: Kysely<Database>) {
  return sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
}

/** Backends blocked by `pid`, directly or behind one that is. */
function blockedBehind(db: DatabaseHandle, pid: number) {
  return sql<{ n: number }>`
    with w as (select a.pid, pg_blocking_pids(a.pid) as by from pg_stat_activity a where a.datname = current_database())
    select count(*)::int as n from w
    where ${pid} = any(w.by) or exists (select 1 from w w2 where ${pid} = any(w2.by) and w2.pid = any(w.by))`.execute(db.db);
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
