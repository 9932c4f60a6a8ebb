/** init_mints: [creator (s,w), market (w), yes_mint (w), no_mint (w), token_program, system_program]. */
import { MINT_SIZE, TOKEN_PROGRAM_ID, createInitializeMint2Instruction } from '@solana/spl-token';
import { SystemProgram } from '@solana/web3.js';
import { findNoMintPda, findYesMintPda } from '@pmx/programs';
import { AccountList, fail } from './guard.js';
import { createPdaAccount, loadMarket, saveMarket } from './state-io.js';
import type { Processor } from './types.js';

/** Outcome tokens use USDC's 6 decimals: one raw token redeems for one raw USDC in AMM mode. */
export const OUTCOME_DECIMALS = 6;

export const processInitMints: Processor = (ix, ctx, programId) => {
  const a = new AccountList(ix.keys, ['creator', 'market', 'yesMint', 'noMint', 'tokenProgram', 'systemProgram']);
  const creator = a.signer('creator');
  a.writable('market', 'yesMint', 'noMint');
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  a.expect('systemProgram', SystemProgram.programId);
  const marketKey = a.key('market');
  const market = loadMarket(ctx, marketKey, programId);
  if (!creator.equals(market.creator)) fail('Unauthorized', 'only the creator initialises the mints');
  if (market.mintsInitialized) fail('MintsAlreadyInitialized');
  if (market.status !== 'active') fail('MarketNotActive');
  const mints = [
    a.expect('yesMint', findYesMintPda(market.marketId, programId)[0]),
    a.expect('noMint', findNoMintPda(market.marketId, programId)[0]),
  ];
  for (const mint of mints) {
    createPdaAccount(ctx, creator, mint, MINT_SIZE, TOKEN_PROGRAM_ID);
    ctx.invoke([createInitializeMint2Instruction(mint, OUTCOME_DECIMALS, marketKey, null)]);
  }
  saveMarket(ctx, marketKey, { ...market, mintsInitialized: true });
  ctx.log(`market ${market.marketId} mints initialised`);
};
