/**
 * The token-account index shared by the families (`token_accounts`): rows stamped with the slot
 * they were read at, never overwritten by an older read. A notification is applied by re-reading
 * the account: several changes can land in one slot and notifications carry no order within it,
 * so the notified amount may already be stale; the chain now is never older than a notification.
 */
import { decodeTokenAccount, TOKEN_ACCOUNT_SIZE } from '@pmx/programs';
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { Kysely } from 'kysely';
import {
  deleteClosedTokenAccount,
  upsertTokenAccounts,
  writeTokenAccountReads,
  type TokenAccountRow,
} from '../../db/repositories/token-accounts.repository.js';
import type { Database } from '../../db/schema.js';
import { rebuildableTransaction } from '../../db/database.js';
import type { AccountSnapshot, ChainClient, ProgramAccountFilter } from '../chain/chain-client.js';

/** An account read as an index row: a Token-program account of exactly 165 bytes, initialised. */
export function decodeTokenAccountSnapshot(snapshot: AccountSnapshot): TokenAccountRow | null {
  if (snapshot.owner !== TOKEN_PROGRAM_ID.toBase58() || snapshot.data.length !== TOKEN_ACCOUNT_SIZE) return null;
  const token = decodeTokenAccount(snapshot.data);
  return token && { address: snapshot.address, mint: token.mint, owner: token.owner, amount: token.amount, slot: BigInt(snapshot.slot) };
}

const TOKEN_PROGRAM = TOKEN_PROGRAM_ID.toBase58();
const ACCOUNT_STATE_OFFSET = 108;

/**
 * What `decodeTokenAccountSnapshot` accepts, for one mint (its 32 bytes), without decoding: a
 * Token-program account of exactly 165 bytes, initialised (state 1 or 2), whose mint is `mint`.
 */
export function isTokenAccountOfMint(snapshot: AccountSnapshot, mint: Uint8Array): boolean {
  const data = snapshot.data;
  if (snapshot.owner !== TOKEN_PROGRAM || data.length !== TOKEN_ACCOUNT_SIZE) return false;
  const state = data[ACCOUNT_STATE_OFFSET];
  if (state !== 1 && state !== 2) return false;
  for (let i = 0; i < 32; i++) if (data[i] !== mint[i]) return false;
  return true;
}

/** The token accounts of one mint (getProgramAccounts / programSubscribe filter: 165 bytes, mint at 0). */
export function tokenAccountsOfMintFilters(mint: string): ProgramAccountFilter[] {
  return [{ dataSize: TOKEN_ACCOUNT_SIZE }, { memcmp: { offset: 0, bytes: mint } }];
}

/** Re-reads one token account and writes what the chain holds now (a closed account is removed). */
export async function indexTokenAccount(db: Kysely<Database>, chain: ChainClient, address: string): Promise<TokenAccountRow | null> {
  const snapshot = await chain.getAccount(address);
  const row = snapshot ? decodeTokenAccountSnapshot(snapshot) : null;
  if (!row) {
    await deleteClosedTokenAccount(db, address, BigInt(snapshot?.slot ?? (await chain.getSlot())));
    return null;
  }
  await upsertTokenAccounts(db, [row]);
  return row;
}

/**
 * Re-reads token accounts (one read for all) and writes what the chain holds now in one
 * transaction that does not wait for the disk: the index is rebuilt from the chain whenever lost
 * (rebuildableTransaction). Returns each address's row, null when the account does not exist.
 */
export async function reindexTokenAccounts(
  db: Kysely<Database>,
  chain: ChainClient,
  addresses: string[],
): Promise<(TokenAccountRow | null)[]> {
  // The slot first: a closed account is removed only where no read at or after it wrote the row.
  const slot = BigInt(await chain.getSlot());
  const snapshots = await chain.getMultipleAccounts(addresses);
  await rebuildableTransaction(db, (trx) => indexTokenAccounts(trx, addresses, snapshots, slot));
  return snapshots.map((s) => (s ? decodeTokenAccountSnapshot(s) : null));
}

/** Writes many reads of known addresses at once (null = the account does not exist at `slot`). */
export async function indexTokenAccounts(
  db: Kysely<Database>,
  addresses: string[],
  snapshots: (AccountSnapshot | null)[],
  slot: bigint,
): Promise<number> {
  const rows: TokenAccountRow[] = [];
  const closed: Array<{ address: string; slot: bigint }> = [];
  for (const [i, snapshot] of snapshots.entries()) {
    const row = snapshot ? decodeTokenAccountSnapshot(snapshot) : null;
    if (row) rows.push(row);
    else closed.push({ address: addresses[i]!, slot: BigInt(snapshot?.slot ?? slot) });
  }
  // Upserts and deletes in one address order (the lock order of every token-account writer).
  await writeTokenAccountReads(db, rows, closed);
  return rows.length;
}
