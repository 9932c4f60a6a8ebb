/**
 * Checks shared by resolve, claim_fees and cancel_market over [creator (s,w), market (w),
 * vault (w), creator_usdc (w), token_program]; the signer must be the market's creator.
 */
import { TOKEN_PROGRAM_ID, createTransferInstruction } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import type { InvocationContext, ProgramInstruction } from '../../program-runtime.js';
import type { MarketAccount } from '@pmx/programs';
import { AccountList, fail } from './guard.js';
import { loadMarket, readTokenAccount } from './state-io.js';

export interface CreatorAccounts {
  creator: PublicKey;
  marketKey: PublicKey;
  market: MarketAccount;
  vault: PublicKey;
  creatorUsdc: PublicKey;
  /** Pays `amount` from the vault to the creator (the market PDA signs). */
  payCreator(amount: bigint): void;
}

export function loadCreatorAccounts(ix: ProgramInstruction, ctx: InvocationContext, programId: PublicKey): CreatorAccounts {
  const a = new AccountList(ix.keys, ['creator', 'market', 'vault', 'creatorUsdc', 'tokenProgram']);
  const creator = a.signer('creator');
  a.writable('market', 'vault', 'creatorUsdc');
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  const marketKey = a.key('market');
  const market = loadMarket(ctx, marketKey, programId);
  if (!creator.equals(market.creator)) fail('Unauthorized', `creator is ${market.creator.toBase58()}`);
  const vault = a.expect('vault', market.vault);
  const usdcMint = readTokenAccount(ctx, vault).mint;
  const creatorUsdc = a.key('creatorUsdc');
  if (creatorUsdc.equals(vault)) fail('InvalidAccount', 'the vault cannot pay itself');
  return {
    creator,
    marketKey,
    market,
    vault,
    creatorUsdc,
    // Checked only when something is paid: resolving a Pool market needs no USDC account.
    payCreator(amount) {
      if (amount === 0n) return;
      readTokenAccount(ctx, creatorUsdc, usdcMint, creator);
      ctx.invoke([createTransferInstruction(vault, creatorUsdc, marketKey, amount)], [marketKey]);
    },
  };
}
