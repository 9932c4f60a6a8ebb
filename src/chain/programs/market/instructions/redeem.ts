/** redeem(side u8): burns the owner's whole balance of that side and pays its value (payout.ts). */
import { TransactionInstruction } from '@solana/web3.js';
import type { Side } from '../../../../domain/amm/index.js';
import { BorshReader, BorshWriter } from '../codec.js';
import { instructionDiscriminator } from '../discriminator.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { decodeSide, encodeSide, sideInstructionKeys, type SideAccountsInput } from './common.js';

export const REDEEM_DISCRIMINATOR = instructionDiscriminator('redeem');

export function encodeSideData(discriminator: Buffer, side: Side): Buffer {
  return new BorshWriter().bytes(discriminator).u8(encodeSide(side)).toBuffer();
}

export function decodeSideData(data: Buffer): Side | null {
  const r = new BorshReader(data, 8);
  const side = decodeSide(r.u8());
  if (!r.done()) throw new RangeError('trailing bytes');
  return side;
}

export function getRedeemInstruction(input: SideAccountsInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: sideInstructionKeys(input),
    data: encodeSideData(REDEEM_DISCRIMINATOR, input.side),
  });
}
