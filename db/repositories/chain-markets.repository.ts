/**
 * Family B's market index: the raw account bytes per market id, stamped with the slot they were
 * read at. An upsert never replaces a row read at a newer slot.
 */
import type { Kysely, Selectable } from 'kysely';
import { big } from '../codec.js';
import { precompiled, precompiledList } from '../precompiled.js';
import type { ChainMarketsTable, Database } from '../schema.js';

export interface ChainMarketRow {
  marketId: bigint;
  address: string;
  creator: string;
  status: string;
  mode: string;
  yesMint: string;
  noMint: string;
  data: Buffer;
  slot: bigint;
}

function toRow(r: Selectable<ChainMarketsTable>): ChainMarketRow {
  return {
    marketId: big(r.market_id),
    address: r.address,
    creator: r.creator,
    status: r.status,
    mode: r.mode,
    yesMint: r.yes_mint,
    noMint: r.no_mint,
    data: Buffer.from(r.data, 'base64'),
    slot: big(r.slot),
  };
}

export async function upsertChainMarket(db: Kysely<Database>, m: ChainMarketRow): Promise<void> {
  const values = {
    market_id: m.marketId,
    address: m.address,
    creator: m.creator,
    status: m.status,
    mode: m.mode,
    yes_mint: m.yesMint,
    no_mint: m.noMint,
    data: m.data.toString('base64'),
    slot: m.slot,
    updated_at: new Date().toISOString(),
  };
  await db
    .insertInto('chain_markets')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('market_id')
        .doUpdateSet({ status: values.status, data: values.data, slot: values.slot, updated_at: values.updated_at })
        .where('chain_markets.slot', '<=', values.slot),
    )
    .execute();
}

/** Every API read of a market by id runs this: compiled once (db/precompiled.ts). */
const chainMarketById = precompiled((db, marketId: bigint) => db.selectFrom('chain_markets').selectAll().where('market_id', '=', marketId));

export async function findChainMarket(db: Kysely<Database>, marketId: bigint): Promise<ChainMarketRow | undefined> {
  const [row] = await chainMarketById(db, marketId);
  return row ? toRow(row) : undefined;
}

export async function listChainMarketsByCreator(db: Kysely<Database>, creator: string): Promise<ChainMarketRow[]> {
  const rows = await db.selectFrom('chain_markets').selectAll().where('creator', '=', creator).orderBy('market_id').execute();
  return rows.map(toRow);
}

/** A wallet's positions read runs this with the mints it holds: compiled once per count of mints. */
const chainMarketsByMints = precompiledList((db, mints) =>
  db
    .selectFrom('chain_markets')
    .selectAll()
    .where((eb) => eb.or([eb('yes_mint', 'in', mints), eb('no_mint', 'in', mints)]))
    .orderBy('market_id'),
);

export async function listChainMarketsByMints(db: Kysely<Database>, mints: string[]): Promise<ChainMarketRow[]> {
  if (mints.length === 0) return [];
  return (await chainMarketsByMints(db, mints)).map(toRow);
}

export async function listAllMints(db: Kysely<Database>): Promise<Array<{ marketId: bigint; yesMint: string; noMint: string }>> {
  const rows = await db.selectFrom('chain_markets').select(['market_id', 'yes_mint', 'no_mint']).execute();
  return rows.map((r) => ({ marketId: big(r.market_id), yesMint: r.yes_mint, noMint: r.no_mint }));
}

export async function maxIndexedMarketId(db: Kysely<Database>): Promise<bigint> {
  const row = await db
    .selectFrom('chain_markets')
    .select((eb) => eb.fn.max('market_id').as('max'))
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0n : big(row.max as bigint);
}
