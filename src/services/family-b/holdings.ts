/**
 * What a wallet really holds of an outcome mint, for building redemptions: its associated token
 * account plus any other token accounts the index knows for (owner, mint), each re-read live so a
 * transaction is built from the chain's amounts, never a stale index row. Bounded: a lookup by
 * the (owner, mint) index, then one account read per account, never a scan of the ledger.
 */
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction } from '@solana/spl-token';
import { PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { tokenAccountsOf } from '../../../db/repositories/token-accounts.repository.js';
import type { FamilyBContext } from './context.js';
import { associatedTokenAddress, decodeTokenAccount } from '@pmx/programs';

/** Outcome mints have USDC's 6 decimals (packages/programs/docs/programs.md). */
const OUTCOME_DECIMALS = 6;

export interface Holding {
  mint: PublicKey;
  ata: PublicKey;
  ataAmount: bigint;
  /** Token accounts other than the associated one that hold some of the mint (live amounts). */
  others: Array<{ address: string; amount: bigint }>;
  total: bigint;
}

async function liveAmount(ctx: FamilyBContext, address: string, owner: PublicKey, mint: PublicKey): Promise<bigint> {
  const account = await ctx.chain.getAccount(address);
  const token = account ? decodeTokenAccount(account.data) : null;
  // Closed and reused for another wallet or mint: not this holding.
  return token && token.owner === owner.toBase58() && token.mint === mint.toBase58() ? token.amount : 0n;
}

export async function holdingOf(ctx: FamilyBContext, owner: PublicKey, mint: PublicKey): Promise<Holding> {
  const ata = associatedTokenAddress(mint, owner);
  const indexed = await tokenAccountsOf(ctx.db, owner.toBase58(), [mint.toBase58()]);
  const addresses = [...new Set([ata.toBase58(), ...indexed.map((r) => r.address)])];
  const amounts = await Promise.all(addresses.map((a) => liveAmount(ctx, a, owner, mint)));
  const others = addresses
    .map((address, i) => ({ address, amount: amounts[i]! }))
    .filter((h) => h.address !== ata.toBase58() && h.amount > 0n);
  const ataAmount = amounts[0]!;
  return { mint, ata, ataAmount, others, total: others.reduce((s, h) => s + h.amount, ataAmount) };
}

/**
 * The program redeems the associated account's balance; tokens elsewhere are moved there first,
 * in the same transaction and signed by the same owner, so the redemption pays for all of them.
 */
export function consolidateInstructions(holding: Holding, owner: PublicKey): TransactionInstruction[] {
  if (holding.others.length === 0) return [];
  return [
    createAssociatedTokenAccountIdempotentInstruction(owner, holding.ata, owner, holding.mint),
    ...holding.others.map((h) =>
      createTransferCheckedInstruction(new PublicKey(h.address), holding.mint, holding.ata, owner, h.amount, OUTCOME_DECIMALS),
    ),
  ];
}
