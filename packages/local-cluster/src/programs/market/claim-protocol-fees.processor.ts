/**
 * claim_protocol_fees: [caller (s), config, market (w), vault (w), protocol_fee_usdc (w),
 * token_program]. Any signer; the destination must belong to the config's protocol fee wallet.
 */
import { TOKEN_PROGRAM_ID, createTransferInstruction } from '@solana/spl-token';
import { claimProtocolFees, toMarketState, withMarketState } from '@pmx/programs';
import { AccountList, fail } from './guard.js';
import { loadConfig, loadMarket, readTokenAccount, saveMarket } from './state-io.js';
import type { Processor } from './types.js';

export const processClaimProtocolFees: Processor = (ix, ctx, programId) => {
  const a = new AccountList(ix.keys, ['caller', 'config', 'market', 'vault', 'protocolFeeUsdc', 'tokenProgram']);
  a.signer('caller');
  a.writable('market', 'vault', 'protocolFeeUsdc');
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  const config = loadConfig(ctx, a.key('config'), programId);
  const marketKey = a.key('market');
  const market = loadMarket(ctx, marketKey, programId);
  const vault = a.expect('vault', market.vault);
  const destination = a.key('protocolFeeUsdc');
  readTokenAccount(ctx, destination, config.usdcMint, config.protocolFeeWallet);
  const r = claimProtocolFees(toMarketState(market));
  if (r.amount === 0n) fail('NoFeesToClaim');
  ctx.invoke([createTransferInstruction(vault, destination, marketKey, r.amount)], [marketKey]);
  saveMarket(ctx, marketKey, withMarketState(market, r.next));
  ctx.log(`protocol fees claimed ${r.amount}`);
};
