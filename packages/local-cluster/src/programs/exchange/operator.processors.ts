/** initialize, set_fees, create_market, pause/resume/resolve_market (@pmx/programs' docs/programs.md). */
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { SystemProgram, type PublicKey } from '@solana/web3.js';
import type { InvocationContext, ProgramInstruction } from '../../program-runtime.js';
import {
  CLOB_MARKET_SIZE,
  type ClobMarketAccount,
  encodeClobMarket,
  encodeExchangeConfig,
  EXCHANGE_CONFIG_SIZE,
  EXCHANGE_DATA,
  findClobMarketPda,
  findClobOutcomeMintPda,
  findExchangeConfigPda,
  uuidFromSeed,
} from '@pmx/programs';
import { Accounts, decodeArgs, fail } from './guard.js';
import { createPdaAccount, loadConfig, loadMarket, save } from './state.js';

export type Processor = (ix: ProgramInstruction, ctx: InvocationContext, programId: PublicKey) => void;

export const OUTCOME_DECIMALS = 6;
export const MAX_TAKER_FEE_BPS = 1000;

function checkFees(f: { takerFeeBps: number; makerRebateBps: number }): void {
  if (f.takerFeeBps > MAX_TAKER_FEE_BPS || f.makerRebateBps > f.takerFeeBps) fail('InvalidFeeRates');
}

export const processInitialize: Processor = (ix, ctx, programId) => {
  const fees = decodeArgs(() => EXCHANGE_DATA.initialize.decode(ix.data));
  const a = new Accounts(ix.keys, ['operator', 'config', 'usdcMint', 'feeWallet', 'systemProgram']);
  const operator = a.signer('operator');
  a.writable('operator', 'config');
  const [configKey, bump] = findExchangeConfigPda(programId);
  a.expect('config', configKey);
  a.expect('systemProgram', SystemProgram.programId);
  const mint = ctx.getAccount(a.key('usdcMint'));
  if (!mint || !mint.owner.equals(TOKEN_PROGRAM_ID) || mint.data.length !== MINT_SIZE) fail('InvalidAccount', 'usdc_mint');
  checkFees(fees);
  createPdaAccount(ctx, operator, configKey, EXCHANGE_CONFIG_SIZE, programId);
  save(ctx, configKey, encodeExchangeConfig({ operator, usdcMint: a.key('usdcMint'), feeWallet: a.key('feeWallet'), ...fees, bump }));
  ctx.log(`exchange initialised: taker ${fees.takerFeeBps} bps, maker rebate ${fees.makerRebateBps} bps`);
};

export const processSetFees: Processor = (ix, ctx, programId) => {
  const fees = decodeArgs(() => EXCHANGE_DATA.setFees.decode(ix.data));
  const a = new Accounts(ix.keys, ['operator', 'config']);
  const operator = a.signer('operator');
  a.writable('config');
  const config = loadConfig(ctx, a.key('config'), programId);
  if (!operator.equals(config.operator)) fail('Unauthorized');
  checkFees(fees);
  save(ctx, a.key('config'), encodeExchangeConfig({ ...config, ...fees }));
};

const CREATE_ACCOUNTS = [
  'operator',
  'config',
  'market',
  'yesMint',
  'noMint',
  'usdcMint',
  'vault',
  'tokenProgram',
  'ataProgram',
  'systemProgram',
] as const;

export const processCreateMarket: Processor = (ix, ctx, programId) => {
  const { marketUuid } = decodeArgs(() => EXCHANGE_DATA.createMarket.decode(ix.data));
  const uuid = uuidFromSeed(marketUuid);
  const a = new Accounts(ix.keys, CREATE_ACCOUNTS);
  const operator = a.signer('operator');
  a.writable('operator', 'market', 'yesMint', 'noMint', 'vault');
  const config = loadConfig(ctx, a.key('config'), programId);
  if (!operator.equals(config.operator)) fail('Unauthorized', 'only the operator creates markets');
  const [market, bump] = findClobMarketPda(uuid, programId);
  a.expect('market', market);
  const yesMint = a.expect('yesMint', findClobOutcomeMintPda(uuid, 'yes', programId)[0]);
  const noMint = a.expect('noMint', findClobOutcomeMintPda(uuid, 'no', programId)[0]);
  a.expect('usdcMint', config.usdcMint);
  const vault = a.expect('vault', getAssociatedTokenAddressSync(config.usdcMint, market, true));
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  a.expect('ataProgram', ASSOCIATED_TOKEN_PROGRAM_ID);
  a.expect('systemProgram', SystemProgram.programId);

  createPdaAccount(ctx, operator, market, CLOB_MARKET_SIZE, programId);
  for (const mint of [yesMint, noMint]) {
    createPdaAccount(ctx, operator, mint, MINT_SIZE, TOKEN_PROGRAM_ID);
    ctx.invoke([createInitializeMint2Instruction(mint, OUTCOME_DECIMALS, market, null)]);
  }
  // Idempotent: anyone may create an ATA, so a pre-created vault must not block the market.
  ctx.invoke([createAssociatedTokenAccountIdempotentInstruction(operator, vault, market, config.usdcMint)]);
  save(
    ctx,
    market,
    encodeClobMarket({
      marketUuid,
      yesMint,
      noMint,
      vault,
      completeSets: 0n,
      createdAt: ctx.unixTimestamp,
      resolvedAt: 0n,
      status: 'active',
      outcome: null,
      bump,
    }),
  );
  ctx.log(`orderbook market ${uuid} created`);
};

function statusAccounts(
  ix: ProgramInstruction,
  ctx: InvocationContext,
  programId: PublicKey,
): { key: PublicKey; market: ClobMarketAccount } {
  const a = new Accounts(ix.keys, ['operator', 'config', 'market']);
  const operator = a.signer('operator');
  a.writable('market');
  const config = loadConfig(ctx, a.key('config'), programId);
  if (!operator.equals(config.operator)) fail('Unauthorized');
  return { key: a.key('market'), market: loadMarket(ctx, a.key('market'), programId) };
}

export const processPause: Processor = (ix, ctx, programId) => {
  decodeArgs(() => EXCHANGE_DATA.pauseMarket.decode(ix.data));
  const { key, market } = statusAccounts(ix, ctx, programId);
  if (market.status !== 'active') fail('InvalidStatusTransition', `market is ${market.status}`);
  save(ctx, key, encodeClobMarket({ ...market, status: 'paused' }));
};

export const processResume: Processor = (ix, ctx, programId) => {
  decodeArgs(() => EXCHANGE_DATA.resumeMarket.decode(ix.data));
  const { key, market } = statusAccounts(ix, ctx, programId);
  if (market.status !== 'paused') fail('InvalidStatusTransition', `market is ${market.status}`);
  save(ctx, key, encodeClobMarket({ ...market, status: 'active' }));
};

export const processResolve: Processor = (ix, ctx, programId) => {
  const { outcome } = decodeArgs(() => EXCHANGE_DATA.resolveMarket.decode(ix.data));
  const { key, market } = statusAccounts(ix, ctx, programId);
  if (outcome > 1) fail('InvalidOutcome');
  if (market.status === 'resolved') fail('MarketResolved');
  save(ctx, key, encodeClobMarket({ ...market, status: 'resolved', outcome: outcome === 0 ? 'yes' : 'no', resolvedAt: ctx.unixTimestamp }));
  ctx.log(`orderbook market resolved ${outcome === 0 ? 'YES' : 'NO'}`);
};
