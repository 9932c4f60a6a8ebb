// The seeded rows and the waits of settlement-holds.test.ts: a batch with one settling fill, a chain
// that finds chosen receipts, and, on PostgreSQL, ways to hold a row lock and see a session wait on it.
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { sql, type Kysely } from 'kysely';
import { addOwnerHolds, ownerHoldRows } from '../../db/repositories/clob-commitments.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { AccountSnapshot, ChainClient } from '../../src/chain/chain-client.js';
import { encodeFillReceipt, EXCHANGE_PROGRAM_ID, findFillReceiptPda } from '@pmx/programs';
import { fillHolds } from '../../src/domain/orderbook/index.js';

export const MAKER = Keypair.generate().publicKey.toBase58();
export const TAKER = Keypair.generate().publicKey.toBase58();
const MARKET = randomUUID();

/** A direct fill: the taker buys 10 YES at 6000 from the maker (taker holds 6.015 USDC, the maker 10 YES). */
export function fillRow(id: string, seq: number, status: 'matched' | 'settling', batchId: string | null) {
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
export function chainWithReceipts(landed: string[]): ChainClient {
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

/** A batch carrying one settling fill, plus another matched fill of the same owners; both hold. */
export async function seed(db: DatabaseHandle): Promise<{ batchId: string; fillId: string; otherId: string }> {
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
export async function holdsOf(db: DatabaseHandle, owner: string) {
  const row = (await ownerHoldRows(db.db, owner)).find((r) => r.marketId === MARKET);
  return { usdc: row?.usdc ?? 0n, yes: row?.yes ?? 0n, no: row?.no ?? 0n };
}

/**
 * PostgreSQL: runs `body` while a transaction holds what `hold` locked, and lets that transaction
 * commit only once `waiters` backends wait behind it (directly or behind one that does).
 */
export async function whileHeld<T>(
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
export function withBatchLocked(db: DatabaseHandle, batchId: string, body: () => Promise<unknown>): Promise<unknown> {
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
