/**
 * Creating a program-owned PDA account that anyone could have pre-funded. Lamports can be sent to
 * any address, and a fill's receipt address is public (the fill id is): a plain System
 * `createAccount` would then fail forever and the fill could never settle. As Anchor's `init`
 * does, an address that holds only lamports is topped up, allocated and assigned instead.
 */
import { SystemProgram, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import type { InvocationContext } from '../../program-runtime.js';
import { createAccountInstruction } from './cpi-instructions.js';
import { fail } from './guard.js';

const SYSTEM = SystemProgram.programId;

/** The System instructions that make `address` a program account (to invoke with `address` as PDA signer). */
export function programAccountInstructions(
  ctx: InvocationContext,
  payer: PublicKey,
  address: PublicKey,
  size: number,
  owner: PublicKey,
): TransactionInstruction[] {
  const rent = ctx.rentExemptMinimum(size);
  const existing = ctx.getAccount(address);
  if (!existing)
    return [
      createAccountInstruction({ fromPubkey: payer, newAccountPubkey: address, lamports: Number(rent), space: size, programId: owner }),
    ];
  if (!existing.owner.equals(SYSTEM) || existing.data.length > 0) fail('AlreadyInitialized', address.toBase58());
  const ixs =
    existing.lamports < rent
      ? [SystemProgram.transfer({ fromPubkey: payer, toPubkey: address, lamports: Number(rent - existing.lamports) })]
      : [];
  ixs.push(
    SystemProgram.allocate({ accountPubkey: address, space: size }),
    SystemProgram.assign({ accountPubkey: address, programId: owner }),
  );
  return ixs;
}

export function createProgramAccount(ctx: InvocationContext, payer: PublicKey, address: PublicKey, size: number, owner: PublicKey): void {
  ctx.invoke(programAccountInstructions(ctx, payer, address, size, owner), [address]);
}
