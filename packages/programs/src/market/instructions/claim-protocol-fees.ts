/**
 * claim_protocol_fees: moves a market's unclaimed protocol fees to the USDC token account of the
 * config's protocol fee wallet. Any signer may send it (a keeper): the destination is fixed.
 * Accounts: [caller (s), config, market (w), vault (w), protocol_fee_usdc (w), token_program].
 */
import { TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { findConfigPda } from '../pda.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import { TOKEN_PROGRAM_ID, marketAddresses, readonly, signerR, writable } from './common.js';
import { associatedTokenAddress } from '../../solana/pda-cache.js';

export const CLAIM_PROTOCOL_FEES_DISCRIMINATOR = instructionDiscriminator('claim_protocol_fees');

export interface ClaimProtocolFeesInput {
  marketId: bigint;
  caller: PublicKey;
  usdcMint: PublicKey;
  protocolFeeWallet: PublicKey;
  /** Default: the protocol fee wallet's USDC ATA. */
  protocolFeeUsdc?: PublicKey;
  programId?: PublicKey;
}

export function getClaimProtocolFeesInstruction(input: ClaimProtocolFeesInput): TransactionInstruction {
  const programId = input.programId ?? MARKET_PROGRAM_ID;
  const { market, vault } = marketAddresses(input.marketId, input.usdcMint, programId);
  return new TransactionInstruction({
    programId,
    keys: [
      signerR(input.caller),
      readonly(findConfigPda(programId)[0]),
      writable(market),
      writable(vault),
      writable(input.protocolFeeUsdc ?? associatedTokenAddress(input.usdcMint, input.protocolFeeWallet)),
      readonly(TOKEN_PROGRAM_ID),
    ],
    data: Buffer.from(CLAIM_PROTOCOL_FEES_DISCRIMINATOR),
  });
}
