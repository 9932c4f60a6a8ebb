/** Reads SPL token balances from the chain (live, for transaction building). */
import { AccountLayout } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { addressOf, associatedTokenAddress } from '@pmx/programs';

/** The balance of `owner`'s associated token account for `mint` (0 when it does not exist). */
export async function ataBalance(chain: ChainClient, mint: PublicKey, owner: PublicKey): Promise<bigint> {
  const ata = associatedTokenAddress(mint, owner);
  const account = await chain.getAccount(addressOf(ata));
  if (!account || account.data.length < AccountLayout.span) return 0n;
  return account.data.readBigUInt64LE(64); // the SPL token account layout's amount (mint 0..32, owner 32..64)
}
