/** initialize: creates the global config PDA ["config"]; signed and paid by the admin. */
import { TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { findConfigPda } from '../pda.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { SYSTEM_PROGRAM_ID, readonly, signerW, writable } from './common.js';

export const INITIALIZE_DISCRIMINATOR = instructionDiscriminator('initialize');

export interface InitializeInput {
  admin: PublicKey;
  usdcMint: PublicKey;
  protocolFeeWallet: PublicKey;
  programId?: PublicKey;
}

export function getInitializeInstruction(input: InitializeInput): TransactionInstruction {
  const programId = input.programId ?? MARKET_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [
      signerW(input.admin),
      writable(findConfigPda(programId)[0]),
      readonly(input.usdcMint),
      readonly(input.protocolFeeWallet),
      readonly(SYSTEM_PROGRAM_ID),
    ],
    data: Buffer.from(INITIALIZE_DISCRIMINATOR),
  });
}
