/** initialize: [admin (s,w), config (w), usdc_mint, protocol_fee_wallet, system_program]. */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram } from '@solana/web3.js';
import { CONFIG_ACCOUNT_SIZE, findConfigPda } from '@pmx/programs';
import { AccountList, fail } from './guard.js';
import { createPdaAccount, saveConfig } from './state-io.js';
import type { Processor } from './types.js';

export const processInitialize: Processor = (ix, ctx, programId) => {
  const a = new AccountList(ix.keys, ['admin', 'config', 'usdcMint', 'protocolFeeWallet', 'systemProgram']);
  const admin = a.signer('admin');
  const [configPda, bump] = findConfigPda(programId);
  const config = a.expect('config', configPda);
  a.writable('config');
  a.expect('systemProgram', SystemProgram.programId);
  const usdcMint = a.key('usdcMint');
  if (!ctx.getAccount(usdcMint)?.owner.equals(TOKEN_PROGRAM_ID)) fail('InvalidAccount', 'usdc_mint is not an SPL mint');
  createPdaAccount(ctx, admin, config, CONFIG_ACCOUNT_SIZE, programId);
  saveConfig(ctx, config, {
    admin,
    usdcMint,
    protocolFeeWallet: a.key('protocolFeeWallet'),
    marketCounter: 0n,
    bump,
  });
  ctx.log(`config initialised, admin ${admin.toBase58()}`);
};
