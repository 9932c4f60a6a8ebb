/**
 * split (1 USDC → 1 YES + 1 NO), merge (1 YES + 1 NO → 1 USDC) and redeem (1 winning token →
 * 1 USDC), all inside the owner's smart wallet. The escrow PDA signs what leaves the wallet, the
 * market PDA signs mints and what leaves the vault. complete_sets tracks YES = NO supply = vault.
 */
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createBurnInstruction,
  createMintToInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { PublicKey, SystemProgram } from '@solana/web3.js';
import type { InvocationContext, ProgramInstruction } from '../../program-runtime.js';
import { type ClobMarketAccount, decodeTokenAccount, encodeClobMarket, EXCHANGE_DATA, findUserEscrowPda, U64_MAX } from '@pmx/programs';
import { Accounts, decodeArgs, fail } from './guard.js';
import type { Processor } from './operator.processors.js';
import { loadEscrow, loadMarket, save, tokenBalance } from './state.js';
import { decodeAmount } from './wallet.processors.js';

const NAMES = [
  'owner',
  'escrow',
  'market',
  'vault',
  'escrowUsdc',
  'yesMint',
  'noMint',
  'escrowYes',
  'escrowNo',
  'tokenProgram',
  'ataProgram',
  'systemProgram',
] as const;

interface Ops {
  owner: PublicKey;
  escrow: PublicKey;
  marketKey: PublicKey;
  market: ClobMarketAccount;
  vault: PublicKey;
  escrowUsdc: PublicKey;
  escrowYes: PublicKey;
  escrowNo: PublicKey;
}

function loadOps(ix: ProgramInstruction, ctx: InvocationContext, programId: PublicKey): Ops {
  const a = new Accounts(ix.keys, NAMES);
  const owner = a.signer('owner');
  a.writable('owner', 'market', 'vault', 'escrowUsdc', 'yesMint', 'noMint', 'escrowYes', 'escrowNo');
  const escrow = a.expect('escrow', findUserEscrowPda(owner, programId)[0], 'EscrowMismatch');
  if (!loadEscrow(ctx, escrow, programId).owner.equals(owner)) fail('EscrowMismatch');
  const marketKey = a.key('market');
  const market = loadMarket(ctx, marketKey, programId);
  const vault = a.expect('vault', market.vault);
  const vaultAcc = ctx.getAccount(vault);
  if (!vaultAcc) fail('NotInitialized', 'vault');
  const vaultToken = decodeTokenAccount(vaultAcc.data);
  if (!vaultToken) fail('InvalidAccount', 'vault is not a token account');
  const usdc = new PublicKey(vaultToken.mint);
  a.expect('yesMint', market.yesMint);
  a.expect('noMint', market.noMint);
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  a.expect('ataProgram', ASSOCIATED_TOKEN_PROGRAM_ID);
  a.expect('systemProgram', SystemProgram.programId);
  const ops: Ops = {
    owner,
    escrow,
    marketKey,
    market,
    vault,
    escrowUsdc: a.expect('escrowUsdc', getAssociatedTokenAddressSync(usdc, escrow, true)),
    escrowYes: a.expect('escrowYes', getAssociatedTokenAddressSync(market.yesMint, escrow, true)),
    escrowNo: a.expect('escrowNo', getAssociatedTokenAddressSync(market.noMint, escrow, true)),
  };
  tokenBalance(ctx, ops.escrowUsdc, usdc, escrow);
  // The owner pays rent for outcome accounts the smart wallet does not have yet.
  ctx.invoke([
    createAssociatedTokenAccountIdempotentInstruction(owner, ops.escrowYes, escrow, market.yesMint),
    createAssociatedTokenAccountIdempotentInstruction(owner, ops.escrowNo, escrow, market.noMint),
  ]);
  return ops;
}

function requireActive(m: ClobMarketAccount): void {
  if (m.status === 'paused') fail('MarketPaused');
  if (m.status === 'resolved') fail('MarketResolved');
}

export const processSplit: Processor = (ix, ctx, programId) => {
  const amount = decodeAmount(EXCHANGE_DATA.split, ix.data);
  const o = loadOps(ix, ctx, programId);
  requireActive(o.market);
  if (o.market.completeSets + amount > U64_MAX) fail('MathOverflow');
  ctx.invoke([createTransferInstruction(o.escrowUsdc, o.vault, o.escrow, amount)], [o.escrow]);
  ctx.invoke(
    [
      createMintToInstruction(o.market.yesMint, o.escrowYes, o.marketKey, amount),
      createMintToInstruction(o.market.noMint, o.escrowNo, o.marketKey, amount),
    ],
    [o.marketKey],
  );
  save(ctx, o.marketKey, encodeClobMarket({ ...o.market, completeSets: o.market.completeSets + amount }));
  ctx.log(`split ${amount}`);
};

export const processMerge: Processor = (ix, ctx, programId) => {
  const amount = decodeAmount(EXCHANGE_DATA.merge, ix.data);
  const o = loadOps(ix, ctx, programId);
  requireActive(o.market);
  ctx.invoke(
    [
      createBurnInstruction(o.escrowYes, o.market.yesMint, o.escrow, amount),
      createBurnInstruction(o.escrowNo, o.market.noMint, o.escrow, amount),
    ],
    [o.escrow],
  );
  ctx.invoke([createTransferInstruction(o.vault, o.escrowUsdc, o.marketKey, amount)], [o.marketKey]);
  save(ctx, o.marketKey, encodeClobMarket({ ...o.market, completeSets: o.market.completeSets - amount }));
  ctx.log(`merge ${amount}`);
};

export const processRedeem: Processor = (ix, ctx, programId) => {
  const args = decodeArgs(() => EXCHANGE_DATA.redeem.decode(ix.data));
  if (args.amount === 0n) fail('InvalidAmount');
  if (args.outcome > 1) fail('InvalidOutcome');
  const o = loadOps(ix, ctx, programId);
  if (o.market.status !== 'resolved') fail('MarketNotResolved');
  const side = args.outcome === 0 ? 'yes' : 'no';
  if (side !== o.market.outcome) fail('LosingOutcome');
  const [account, mint] = side === 'yes' ? [o.escrowYes, o.market.yesMint] : [o.escrowNo, o.market.noMint];
  ctx.invoke([createBurnInstruction(account, mint, o.escrow, args.amount)], [o.escrow]);
  ctx.invoke([createTransferInstruction(o.vault, o.escrowUsdc, o.marketKey, args.amount)], [o.marketKey]);
  ctx.log(`redeem ${side} ${args.amount}`);
};
