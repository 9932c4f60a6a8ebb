/**
 * create_market: writes the market PDA, creates the USDC vault (ATA of the market PDA) and moves
 * the seed from the creator. Data: disc | market_id u64 | title str | description str |
 * yes_ticker str | no_ticker str | resolution_time i64 | seed_amount u64 | trade_fee_bps u16.
 */
import { getI64Codec, getU16Codec, getU64Codec } from '@solana/kit';
import { TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { instructionDiscriminator } from '../../shared/discriminator.js';
import { borshStringCodec } from '../../shared/field-codecs.js';
import { instructionLayout } from '../../shared/layout.js';
import { findConfigPda } from '../pda.js';
import { MARKET_PROGRAM_ID } from '../program-id.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  marketAddresses,
  readonly,
  signerW,
  writable,
} from './common.js';
import { associatedTokenAddress } from '../../solana/pda-cache.js';

export const CREATE_MARKET_DISCRIMINATOR = instructionDiscriminator('create_market');

export interface CreateMarketArgs {
  marketId: bigint;
  title: string;
  description: string;
  yesTicker: string;
  noTicker: string;
  resolutionTime: bigint;
  /** Raw USDC; 0 = Pool mode, ≥ 1_000_000 = AMM. */
  seedAmount: bigint;
  tradeFeeBps: number;
}

export interface CreateMarketInput extends CreateMarketArgs {
  creator: PublicKey;
  usdcMint: PublicKey;
  /** Defaults to the creator's USDC ATA. */
  creatorUsdc?: PublicKey;
  programId?: PublicKey;
}

export const CREATE_MARKET_DATA = instructionLayout(CREATE_MARKET_DISCRIMINATOR, [
  ['marketId', getU64Codec()],
  ['title', borshStringCodec],
  ['description', borshStringCodec],
  ['yesTicker', borshStringCodec],
  ['noTicker', borshStringCodec],
  ['resolutionTime', getI64Codec()],
  ['seedAmount', getU64Codec()],
  ['tradeFeeBps', getU16Codec()],
]);

export function getCreateMarketInstruction(input: CreateMarketInput): TransactionInstruction {
  const programId = input.programId ?? MARKET_PROGRAM_ID;
  const { market, vault } = marketAddresses(input.marketId, input.usdcMint, programId);
  return new TransactionInstruction({
    programId,
    keys: [
      signerW(input.creator),
      writable(findConfigPda(programId)[0]),
      writable(market),
      readonly(input.usdcMint),
      writable(vault),
      writable(input.creatorUsdc ?? associatedTokenAddress(input.usdcMint, input.creator)),
      readonly(TOKEN_PROGRAM_ID),
      readonly(ASSOCIATED_TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
    ],
    data: CREATE_MARKET_DATA.encode(input),
  });
}
