/** Reads SPL token balances from the chain (live, for transaction building). */
import { AccountLayout, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import type { ChainClient } from '../../chain/chain-client.js';

/** The balance of `owner`'s associated token account for `mint` (0 when it does not exist). */
export async function ataBalance(chain: ChainClient, mint: PublicKey, owner: PublicKey): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(mint, owner, true);
  const account = await chain.getAccount(ata.toBase58());
  if (!account || account.data.length < AccountLayout.span) return 0n;
  return AccountLayout.decode(account.data).amount;
}
