/**
 * create_market: [creator (s,w), config (w), market (w), usdc_mint, vault (w), creator_usdc (w),
 * token_program, associated_token_program, system_program].
 */
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { SystemProgram } from '@solana/web3.js';
import {
  CREATE_MARKET_DATA,
  type CreateMarketArgs,
  DESCRIPTION_MAX_CHARS,
  findMarketPda,
  MARKET_ACCOUNT_SIZE,
  MAX_TRADE_FEE_BPS,
  MIN_AMM_SEED,
  MIN_TRADE_FEE_BPS,
  openMarket,
  TICKER_MAX_CHARS,
  TITLE_MAX_CHARS,
  withMarketState,
} from '@pmx/programs';
import { AccountList, decodeArgs, domain, fail } from './guard.js';
import { createPdaAccount, loadConfig, readTokenAccount, saveConfig, saveMarket } from './state-io.js';
import type { Processor } from './types.js';

/** 2001-01-01T00:00:00Z and 2096-01-01T00:00:00Z (exclusive bounds). */
export const MIN_RESOLUTION_TIME = 978_307_200n;
export const MAX_RESOLUTION_TIME = 3_976_214_400n;

const chars = (s: string) => [...s].length;

function validate(args: CreateMarketArgs): void {
  if (args.marketId < 1n) fail('InvalidArgument', 'market_id must be ≥ 1');
  if (chars(args.title) < 1 || chars(args.title) > TITLE_MAX_CHARS) fail('StringTooLong', 'title');
  if (chars(args.description) > DESCRIPTION_MAX_CHARS) fail('StringTooLong', 'description');
  for (const t of [args.yesTicker, args.noTicker]) {
    if (chars(t) < 1 || chars(t) > TICKER_MAX_CHARS) fail('StringTooLong', 'ticker');
  }
  if (args.resolutionTime <= MIN_RESOLUTION_TIME || args.resolutionTime >= MAX_RESOLUTION_TIME) fail('InvalidResolutionTime');
  const bps = BigInt(args.tradeFeeBps);
  if (bps < MIN_TRADE_FEE_BPS || bps > MAX_TRADE_FEE_BPS) fail('InvalidTradeFee');
  if (args.seedAmount !== 0n && args.seedAmount < MIN_AMM_SEED) fail('InvalidSeed');
}

export const processCreateMarket: Processor = (ix, ctx, programId) => {
  const a = new AccountList(ix.keys, [
    'creator',
    'config',
    'market',
    'usdcMint',
    'vault',
    'creatorUsdc',
    'tokenProgram',
    'ataProgram',
    'systemProgram',
  ]);
  const args = decodeArgs(() => CREATE_MARKET_DATA.decode(ix.data));
  validate(args);
  const creator = a.signer('creator');
  a.writable('config', 'market', 'vault', 'creatorUsdc');
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  a.expect('ataProgram', ASSOCIATED_TOKEN_PROGRAM_ID);
  a.expect('systemProgram', SystemProgram.programId);
  const configKey = a.key('config');
  const config = loadConfig(ctx, configKey, programId);
  const usdcMint = a.expect('usdcMint', config.usdcMint);
  const [marketPda, bump] = findMarketPda(args.marketId, programId);
  const market = a.expect('market', marketPda);
  const vault = a.expect('vault', getAssociatedTokenAddressSync(usdcMint, market, true));
  const creatorUsdc = a.key('creatorUsdc');
  // Only a seeded (AMM) market debits it: a Pool market's creator needs no USDC account yet.
  if (args.seedAmount > 0n) readTokenAccount(ctx, creatorUsdc, usdcMint, creator);

  createPdaAccount(ctx, creator, market, MARKET_ACCOUNT_SIZE, programId);
  // Idempotent: anyone may create an ATA, so a pre-created vault must not block the market.
  ctx.invoke([createAssociatedTokenAccountIdempotentInstruction(creator, vault, market, usdcMint)]);
  if (args.seedAmount > 0n) ctx.invoke([createTransferInstruction(creatorUsdc, vault, creator, args.seedAmount)]);

  const state = domain(() => openMarket(args.seedAmount, BigInt(args.tradeFeeBps)));
  saveMarket(
    ctx,
    market,
    withMarketState(
      {
        marketId: args.marketId,
        creator,
        vault,
        resolutionTime: args.resolutionTime,
        createdAt: ctx.unixTimestamp,
        resolvedAt: 0n,
        tradeFeeBps: args.tradeFeeBps,
        mintsInitialized: false,
        bump,
        seedAmount: args.seedAmount,
        totalVolume: 0n,
        title: args.title,
        description: args.description,
        yesTicker: args.yesTicker,
        noTicker: args.noTicker,
        mode: state.mode,
        status: state.status,
        winningSide: null,
        yesReserve: 0n,
        noReserve: 0n,
        yesSupply: 0n,
        noSupply: 0n,
        collateral: 0n,
        creatorFeesAccrued: 0n,
        creatorFeesClaimed: 0n,
        protocolFeesAccrued: 0n,
        protocolFeesClaimed: 0n,
      },
      state,
    ),
  );
  // Ids are reserved off chain; the counter is the highest id ever created.
  if (args.marketId > config.marketCounter) saveConfig(ctx, configKey, { ...config, marketCounter: args.marketId });
  ctx.log(`market ${args.marketId} created (${state.mode}, seed ${args.seedAmount})`);
};
