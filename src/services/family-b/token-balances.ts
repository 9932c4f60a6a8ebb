/** Reads SPL token balances from the chain (live, for transaction building). */
import type { PublicKey } from '@solana/web3.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { addressOf, associatedTokenAddress, decodeTokenAccount } from '@pmx/programs';

/** The balance of `owner`'s associated token account for `mint` (0 when it does not exist). */
export async function ataBalance(chain: ChainClient, mint: PublicKey, owner: PublicKey): Promise<bigint> {
  const ata = associatedTokenAddress(mint, owner);
  const account = await chain.getAccount(addressOf(ata));
  return account ? (decodeTokenAccount(account.data)?.amount ?? 0n) : 0n;
}
