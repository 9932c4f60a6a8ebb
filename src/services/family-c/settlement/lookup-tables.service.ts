/**
 * Each orderbook market's address lookup tables, kept by the keeper so settlement transactions
 * stay small (a looked-up account costs one byte instead of 32): the market's fixed accounts and,
 * as traders appear, each trader's smart wallet and its USDC, YES and NO accounts. The operator
 * creates and extends them through the real Address Lookup Table program; an address appended in
 * a slot is usable from the next slot on, so the keeper waits one slot after extending and never
 * offers a transaction addresses of the current slot. A table holds 256 addresses; a full one is
 * followed by a new one (the market row lists them, comma-separated).
 */
import { AddressLookupTableAccount, PublicKey } from '@solana/web3.js';
import { findClobMarketById, setClobLookupTable } from '../../../../db/repositories/clob-markets.repository.js';
import {
  getCreateLookupTableInstruction,
  getExtendLookupTableInstructions,
  LOOKUP_TABLE_CAPACITY,
  missingLookupTableAddresses,
  type SettlementFill,
  U64_MAX,
} from '@pmx/programs';
import { pollUntil } from '../../../infra/poll.js';
import { sendAndConfirmPlatformTransaction } from '../../platform-transaction.js';
import type { KeeperDeps } from './keeper.deps.js';

const tablesOf = (row: { lookup_table: string | null }) => (row.lookup_table ? row.lookup_table.split(',') : []);

/**
 * A market's table keys as its planner knows them: from the market row the planning job reads
 * once, so a group of batches reads no row for its tables (on PostgreSQL, a round trip per group).
 * Only the keeper writes them, and it reads the row again before it adds anything.
 */
export interface KnownTables {
  marketId: string;
  keys: string[];
}

export function knownTables(row: { id: string; lookup_table: string | null }): KnownTables {
  return { marketId: row.id, keys: tablesOf(row) };
}

/** The market's tables as usable now, read from its row (the outbound builder's rebuild). */
export async function marketLookupTables(k: KeeperDeps, marketId: string): Promise<AddressLookupTableAccount[]> {
  const row = await findClobMarketById(k.c.db, marketId);
  return lookupTablesAt(k, row ? tablesOf(row) : []);
}

/** These tables as usable now (addresses appended in the current slot left out). */
async function lookupTablesAt(k: KeeperDeps, keys: readonly string[]): Promise<AddressLookupTableAccount[]> {
  if (keys.length === 0) return [];
  const [accounts, slot] = await Promise.all([k.c.chain.getMultipleAccounts([...keys]), k.c.chain.getSlot()]);
  const out: AddressLookupTableAccount[] = [];
  accounts.forEach((a, i) => {
    if (!a) return;
    const state = AddressLookupTableAccount.deserialize(a.data);
    const addresses = state.lastExtendedSlot >= slot ? state.addresses.slice(0, state.lastExtendedSlotStartIndex) : state.addresses;
    out.push(new AddressLookupTableAccount({ key: new PublicKey(keys[i]!), state: { ...state, addresses } }));
  });
  return out;
}

/**
 * Extends (creating first, when needed) the market's tables with what these fills would look up;
 * `known` follows any table created here.
 */
export async function ensureLookupTables(
  k: KeeperDeps,
  known: KnownTables,
  fills: readonly SettlementFill[],
): Promise<AddressLookupTableAccount[]> {
  const marketId = known.marketId;
  const ref = {
    operator: k.c.operator.publicKey,
    marketUuid: marketId,
    usdcMint: k.c.usdcMint,
    feeWallet: k.c.feeWallet,
    programId: k.c.programId,
  };
  let tables = await lookupTablesAt(k, known.keys);
  let missing = missingLookupTableAddresses(fills, ref, tables);
  if (missing.length === 0) return tables;
  // Something to add: the row again first (a table created since the job read it is used, not doubled).
  const row = await findClobMarketById(k.c.db, marketId);
  known.keys = row ? tablesOf(row) : [];
  tables = await lookupTablesAt(k, known.keys);
  missing = missingLookupTableAddresses(fills, ref, tables);
  if (missing.length === 0) return tables;
  const operator = k.c.operator;
  let lastSlot = 0;
  while (missing.length > 0) {
    let table = tables.find((t) => t.state.addresses.length < LOOKUP_TABLE_CAPACITY);
    if (!table) {
      const [ix, key] = getCreateLookupTableInstruction({
        authority: operator.publicKey,
        payer: operator.publicKey,
        recentSlot: BigInt(await k.c.chain.getSlot()) - 1n,
      });
      await sendAndConfirmPlatformTransaction(k.c.chain, [ix], [operator]);
      known.keys = [...known.keys, key.toBase58()];
      await setClobLookupTable(k.c.db, marketId, known.keys.join(','));
      k.log.info({ market: marketId, table: key.toBase58() }, 'settlement lookup table created');
      table = new AddressLookupTableAccount({
        key,
        state: { deactivationSlot: U64_MAX, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [] },
      });
      tables = [...tables, table];
    }
    const room = LOOKUP_TABLE_CAPACITY - table.state.addresses.length;
    const chunk = missing.slice(0, room);
    for (const ix of getExtendLookupTableInstructions({
      table: table.key,
      authority: operator.publicKey,
      payer: operator.publicKey,
      addresses: chunk,
    })) {
      await sendAndConfirmPlatformTransaction(k.c.chain, [ix], [operator]);
    }
    table.state.addresses.push(...chunk);
    missing = missing.slice(chunk.length);
    lastSlot = await k.c.chain.getSlot();
  }
  // Usable from the next slot on.
  await pollUntil(async () => ((await k.c.chain.getSlot()) > lastSlot ? true : undefined), { timeoutMs: 10_000 });
  return lookupTablesAt(k, known.keys);
}
