/**
 * The chain reads of the solvency checks: many accounts in as few calls as the RPC allows
 * (getMultipleAccounts takes at most 100 addresses), one chunk after the other so that one page
 * never floods the cluster, and the two SPL layouts the checks need (token amount, mint supply).
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { decodeTokenAccount } from '@pmx/programs';
import type { AccountSnapshot, ChainClient } from '../../chain/chain-client.js';

/** Solana JSON-RPC's cap on getMultipleAccounts. */
export const ACCOUNTS_PER_CALL = 100;
const TOKEN_PROGRAM = TOKEN_PROGRAM_ID.toBase58();
/** SPL mint: 82 bytes, supply a u64 at offset 36, is_initialized at 45. */
const MINT_SIZE = 82;

export async function readAccounts(chain: ChainClient, addresses: string[]): Promise<Map<string, AccountSnapshot | null>> {
  const unique = [...new Set(addresses)];
  const found = new Map<string, AccountSnapshot | null>();
  for (let i = 0; i < unique.length; i += ACCOUNTS_PER_CALL) {
    const chunk = unique.slice(i, i + ACCOUNTS_PER_CALL);
    const accounts = await chain.getMultipleAccounts(chunk);
    chunk.forEach((address, j) => found.set(address, accounts[j] ?? null));
  }
  return found;
}

/** The raw amount of an SPL token account of `mint`; null when it is missing or anything else. */
export function tokenAmount(account: AccountSnapshot | null | undefined, mint: string): bigint | null {
  if (!account || account.owner !== TOKEN_PROGRAM) return null;
  const decoded = decodeTokenAccount(account.data);
  return decoded && decoded.mint === mint ? decoded.amount : null;
}

/** The supply of an initialised SPL mint; null when it is missing or not a mint. */
export function mintSupply(account: AccountSnapshot | null | undefined): bigint | null {
  if (!account || account.owner !== TOKEN_PROGRAM || account.data.length !== MINT_SIZE || account.data[45] !== 1) return null;
  return account.data.readBigUInt64LE(36);
}
