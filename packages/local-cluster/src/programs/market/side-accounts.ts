/**
 * The account checks shared by buy, sell and redeem over [owner (s,w), market (w), vault (w),
 * owner_usdc (w), outcome_mint (w), owner_outcome (w), token_program].
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { findOutcomeMintPda, type MarketAccount, type OutcomeSide } from '@pmx/programs';
import type { InvocationContext, ProgramInstruction } from '../../program-runtime.js';
import { AccountList, fail } from './guard.js';
import { loadMarket, readTokenAccount, type TokenAccountView } from './state-io.js';

export interface SideAccounts {
  owner: PublicKey;
  marketKey: PublicKey;
  market: MarketAccount;
  vault: PublicKey;
  ownerUsdc: PublicKey;
  outcomeMint: PublicKey;
  ownerOutcome: PublicKey;
  outcomeAccount: TokenAccountView;
}

export function loadSideAccounts(
  ix: ProgramInstruction,
  ctx: InvocationContext,
  programId: PublicKey,
  side: OutcomeSide | null,
): SideAccounts & { side: OutcomeSide } {
  const a = new AccountList(ix.keys, ['owner', 'market', 'vault', 'ownerUsdc', 'outcomeMint', 'ownerOutcome', 'tokenProgram']);
  if (side === null) fail('InvalidSide');
  const owner = a.signer('owner');
  a.writable('market', 'vault', 'ownerUsdc', 'outcomeMint', 'ownerOutcome');
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  const marketKey = a.key('market');
  const market = loadMarket(ctx, marketKey, programId);
  if (!market.mintsInitialized) fail('MintsNotInitialized');
  const vault = a.expect('vault', market.vault);
  // The vault's mint is the config's USDC mint, checked when create_market created the vault.
  const usdcMint = readTokenAccount(ctx, vault).mint;
  const outcomeMint = a.expect('outcomeMint', findOutcomeMintPda(market.marketId, side, programId)[0]);
  const ownerUsdc = a.key('ownerUsdc');
  if (ownerUsdc.equals(vault)) fail('InvalidAccount', 'the vault cannot pay itself');
  readTokenAccount(ctx, ownerUsdc, usdcMint);
  const ownerOutcome = a.key('ownerOutcome');
  const outcomeAccount = readTokenAccount(ctx, ownerOutcome, outcomeMint);
  return { side, owner, marketKey, market, vault, ownerUsdc, outcomeMint, ownerOutcome, outcomeAccount };
}
