/** redeem(side u8): burns the owner's whole balance of that side and pays its value (payout.ts). */
import { TransactionInstruction } from '@solana/web3.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { instructionLayout } from '../../shared/layout.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { sideCodec, sideInstructionKeys, type SideAccountsInput } from './common.js';

export const REDEEM_DISCRIMINATOR = instructionDiscriminator('redeem');
export const REDEEM_DATA = instructionLayout(REDEEM_DISCRIMINATOR, [['side', sideCodec]]);

export function getRedeemInstruction(input: SideAccountsInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: input.programId ?? MARKET_PROGRAM_ID,
    keys: sideInstructionKeys(input),
    data: REDEEM_DATA.encode(input),
  });
}
