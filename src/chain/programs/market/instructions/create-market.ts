/**
 * create_market: writes the market PDA, creates the USDC vault (ATA of the market PDA) and moves
 * the seed from the creator. Data: disc | market_id u64 | title str | description str |
 * yes_ticker str | no_ticker str | resolution_time i64 | seed_amount u64 | trade_fee_bps u16.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { BorshReader, BorshWriter } from '../codec.js';
import { instructionDiscriminator } from '../discriminator.js';
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

export function encodeCreateMarketData(a: CreateMarketArgs): Buffer {
  return new BorshWriter()
    .bytes(CREATE_MARKET_DISCRIMINATOR)
    .u64(a.marketId)
    .string(a.title)
    .string(a.description)
    .string(a.yesTicker)
    .string(a.noTicker)
    .i64(a.resolutionTime)
    .u64(a.seedAmount)
    .u16(a.tradeFeeBps)
    .toBuffer();
}

export function decodeCreateMarketData(data: Buffer): CreateMarketArgs {
  const r = new BorshReader(data, 8);
  const args = {
    marketId: r.u64(),
    title: r.string(),
    description: r.string(),
    yesTicker: r.string(),
    noTicker: r.string(),
    resolutionTime: r.i64(),
    seedAmount: r.u64(),
    tradeFeeBps: r.u16(),
  };
  if (!r.done()) throw new RangeError('trailing bytes');
  return args;
}

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
      writable(input.creatorUsdc ?? getAssociatedTokenAddressSync(input.usdcMint, input.creator, true)),
      readonly(TOKEN_PROGRAM_ID),
      readonly(ASSOCIATED_TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
    ],
    data: encodeCreateMarketData(input),
  });
}
