// Converts web3.js v1 results into the chain port's plain shapes.
import type { AccountInfo, ParsedAccountData, ParsedTransactionWithMeta } from '@solana/web3.js';
import type { AccountSnapshot, ChainTransaction } from '../chain-client.js';

export function toAccountSnapshot(address: string, acc: AccountInfo<Buffer | ParsedAccountData>, slot: number): AccountSnapshot {
  const data = Buffer.isBuffer(acc.data) ? acc.data : Buffer.alloc(0);
  return { address, owner: acc.owner.toBase58(), lamports: BigInt(acc.lamports), data, executable: acc.executable, slot };
}

export function parsedToChainTransaction(signature: string, tx: ParsedTransactionWithMeta): ChainTransaction {
  const keys = tx.transaction.message.accountKeys;
  const accountKeys = keys.map((k) => k.pubkey.toBase58());
  const pre = new Map((tx.meta?.preTokenBalances ?? []).map((t) => [t.accountIndex, t]));
  const post = new Map((tx.meta?.postTokenBalances ?? []).map((t) => [t.accountIndex, t]));
  const indexes = [...new Set([...pre.keys(), ...post.keys()])].sort((a, b) => a - b);
  return {
    signature,
    slot: tx.slot,
    blockTime: tx.blockTime ?? null,
    err: tx.meta?.err ?? null,
    fee: tx.meta?.fee ?? 0,
    logMessages: tx.meta?.logMessages ?? [],
    accountKeys,
    signers: keys.filter((k) => k.signer).map((k) => k.pubkey.toBase58()),
    lamportBalances: accountKeys.map((account, i) => ({
      account,
      pre: BigInt(tx.meta?.preBalances[i] ?? 0),
      post: BigInt(tx.meta?.postBalances[i] ?? 0),
    })),
    tokenBalances: indexes.map((i) => {
      const t = (post.get(i) ?? pre.get(i))!;
      return {
        accountIndex: i,
        account: accountKeys[i]!,
        mint: t.mint,
        owner: t.owner ?? '',
        pre: BigInt(pre.get(i)?.uiTokenAmount.amount ?? '0'),
        post: BigInt(post.get(i)?.uiTokenAmount.amount ?? '0'),
      };
    }),
  };
}
