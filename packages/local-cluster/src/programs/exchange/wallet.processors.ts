/**
 * deposit / withdraw: USDC between the owner's wallet and the smart wallet. Only the owner's
 * signature moves funds out; the escrow PDA signs the transfer (invoke_signed).
 */
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { SystemProgram } from '@solana/web3.js';
import { encodeUserEscrow, EXCHANGE_DATA, findUserEscrowPda, USER_ESCROW_SIZE } from '@pmx/programs';
import { Accounts, decodeArgs, fail } from './guard.js';
import type { Processor } from './operator.processors.js';
import { createPdaAccount, loadConfig, loadEscrow, save, tokenBalance } from './state.js';

/** The `amount u64` of deposit / withdraw / split / merge (`layout` names which), at least 1. */
export function decodeAmount(layout: typeof EXCHANGE_DATA.deposit, data: Buffer): bigint {
  const { amount } = decodeArgs(() => layout.decode(data));
  if (amount === 0n) fail('InvalidAmount');
  return amount;
}

const DEPOSIT = [
  'owner',
  'config',
  'escrow',
  'usdcMint',
  'ownerUsdc',
  'escrowUsdc',
  'tokenProgram',
  'ataProgram',
  'systemProgram',
] as const;

export const processDeposit: Processor = (ix, ctx, programId) => {
  const amount = decodeAmount(EXCHANGE_DATA.deposit, ix.data);
  const a = new Accounts(ix.keys, DEPOSIT);
  const owner = a.signer('owner');
  a.writable('owner', 'escrow', 'ownerUsdc', 'escrowUsdc');
  const config = loadConfig(ctx, a.key('config'), programId);
  const [escrow, bump] = findUserEscrowPda(owner, programId);
  a.expect('escrow', escrow, 'EscrowMismatch');
  const usdc = a.expect('usdcMint', config.usdcMint);
  const escrowUsdc = a.expect('escrowUsdc', getAssociatedTokenAddressSync(usdc, escrow, true));
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  a.expect('ataProgram', ASSOCIATED_TOKEN_PROGRAM_ID);
  a.expect('systemProgram', SystemProgram.programId);
  const ownerUsdc = a.key('ownerUsdc');
  if (ownerUsdc.equals(escrowUsdc)) fail('InvalidAccount', 'owner_usdc must not be the smart wallet');
  tokenBalance(ctx, ownerUsdc, usdc);

  if (!ctx.getAccount(escrow)) {
    createPdaAccount(ctx, owner, escrow, USER_ESCROW_SIZE, programId);
    save(ctx, escrow, encodeUserEscrow({ owner, createdAt: ctx.unixTimestamp, bump }));
  } else if (!loadEscrow(ctx, escrow, programId).owner.equals(owner)) fail('EscrowMismatch');
  ctx.invoke([createAssociatedTokenAccountIdempotentInstruction(owner, escrowUsdc, escrow, usdc)]);
  ctx.invoke([createTransferInstruction(ownerUsdc, escrowUsdc, owner, amount)]);
  ctx.log(`deposit ${amount}`);
};

export const processWithdraw: Processor = (ix, ctx, programId) => {
  const amount = decodeAmount(EXCHANGE_DATA.withdraw, ix.data);
  const a = new Accounts(ix.keys, ['owner', 'config', 'escrow', 'escrowUsdc', 'ownerUsdc', 'tokenProgram']);
  const owner = a.signer('owner');
  a.writable('escrowUsdc', 'ownerUsdc');
  const usdc = loadConfig(ctx, a.key('config'), programId).usdcMint;
  const escrow = a.expect('escrow', findUserEscrowPda(owner, programId)[0], 'EscrowMismatch');
  if (!loadEscrow(ctx, escrow, programId).owner.equals(owner)) fail('EscrowMismatch');
  const escrowUsdc = a.expect('escrowUsdc', getAssociatedTokenAddressSync(usdc, escrow, true));
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  const ownerUsdc = a.key('ownerUsdc');
  if (ownerUsdc.equals(escrowUsdc)) fail('InvalidAccount', 'owner_usdc must not be the smart wallet');
  tokenBalance(ctx, escrowUsdc, usdc, escrow);
  tokenBalance(ctx, ownerUsdc, usdc);
  ctx.invoke([createTransferInstruction(escrowUsdc, ownerUsdc, escrow, amount)], [escrow]);
  ctx.log(`withdraw ${amount}`);
};
