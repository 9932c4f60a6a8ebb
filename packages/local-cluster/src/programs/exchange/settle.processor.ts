/**
 * settle (operator only): settles matched fills between signed orders, all or nothing
 * (@pmx/programs' docs/programs.md, "settle"). Order of checks: the data and the fixed accounts; the operator;
 * the market active; no fill already has a receipt (so a re-sent batch reports
 * FillAlreadySettled before anything else); the orders (signature proofs through the
 * instructions sysvar, market, expiry); then each fill in turn.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, SYSVAR_INSTRUCTIONS_PUBKEY } from '@solana/web3.js';
import {
  decodeSettleData,
  encodeClobMarket,
  FILL_RECEIPT_SIZE,
  findFillReceiptPdaOfSeed,
  findTokenAccountAddress,
  SETTLE_ACCOUNTS_PER_ORDER,
  SETTLE_FIXED_ACCOUNTS,
  uuidFromSeed,
} from '@pmx/programs';
import { Accounts, decodeArgs, fail } from './guard.js';
import type { Processor } from './operator.processors.js';
import { refuseFill, type SettleEnv } from './settle-env.js';
import { settleFill } from './settle-fill.js';
import { loadOrders, saveOrders } from './settle-orders.js';
import { loadConfig, loadMarket, save, tokenBalance } from './state.js';

const FIXED = [
  'operator',
  'config',
  'market',
  'vault',
  'yesMint',
  'noMint',
  'usdcMint',
  'feeUsdc',
  'instructions',
  'tokenProgram',
  'ataProgram',
  'systemProgram',
] as const;

export const processSettle: Processor = (ix, ctx, programId) => {
  const data = decodeArgs(() => decodeSettleData(ix.data));
  const expected = SETTLE_FIXED_ACCOUNTS + SETTLE_ACCOUNTS_PER_ORDER * data.orders.length + data.fills.length;
  if (ix.keys.length !== expected) fail('InvalidAccount', `expected ${expected} accounts, got ${ix.keys.length}`);
  for (const f of data.fills) {
    if (f.taker >= data.orders.length || f.maker >= data.orders.length || f.taker === f.maker)
      fail('InstructionDidNotDeserialize', 'fill order index');
  }
  const a = new Accounts(ix.keys, FIXED);
  const operator = a.signer('operator');
  a.writable('operator', 'market', 'vault', 'yesMint', 'noMint', 'feeUsdc');
  const config = loadConfig(ctx, a.key('config'), programId);
  if (!operator.equals(config.operator)) fail('Unauthorized', 'only the operator settles');
  const marketKey = a.key('market');
  const market = loadMarket(ctx, marketKey, programId);
  if (market.status === 'paused') fail('MarketPaused');
  if (market.status === 'resolved') fail('MarketResolved');
  const vault = a.expect('vault', market.vault);
  a.expect('yesMint', market.yesMint);
  a.expect('noMint', market.noMint);
  const usdcMint = a.expect('usdcMint', config.usdcMint);
  const feeUsdc = a.expect('feeUsdc', findTokenAccountAddress(config.feeWallet, usdcMint));
  tokenBalance(ctx, feeUsdc, usdcMint, config.feeWallet);
  a.expect('instructions', SYSVAR_INSTRUCTIONS_PUBKEY);
  a.expect('tokenProgram', TOKEN_PROGRAM_ID);
  a.expect('ataProgram', ASSOCIATED_TOKEN_PROGRAM_ID);
  a.expect('systemProgram', SystemProgram.programId);
  const sysvar = ctx.getAccount(SYSVAR_INSTRUCTIONS_PUBKEY);
  if (!sysvar) fail('InvalidAccount', 'instructions sysvar');

  const fillIds = data.fills.map((f) => uuidFromSeed(f.fillUuid));
  const env: SettleEnv = {
    ctx,
    programId,
    operator,
    marketKey,
    market,
    vault,
    usdcMint,
    feeUsdc,
    fees: { takerFeeBps: BigInt(config.takerFeeBps), makerRebateBps: BigInt(config.makerRebateBps) },
    fillIdsByOrder: data.orders.map((_, i) => fillIds.filter((_, k) => data.fills[k]!.taker === i || data.fills[k]!.maker === i)),
  };
  const receiptKeys = ix.keys.slice(SETTLE_FIXED_ACCOUNTS + SETTLE_ACCOUNTS_PER_ORDER * data.orders.length);
  const receipts = data.fills.map((f, k) => {
    const [key, bump] = findFillReceiptPdaOfSeed(data.fills[k]!.fillUuid, programId);
    if (!receiptKeys[k]!.pubkey.equals(key)) fail('InvalidAccount', `receipt of fill ${fillIds[k]} must be ${key.toBase58()}`);
    if (!receiptKeys[k]!.isWritable) fail('AccountNotWritable', `receipt of fill ${fillIds[k]}`);
    const existing = ctx.getAccount(key);
    if (existing && existing.owner.equals(programId) && existing.data.length === FILL_RECEIPT_SIZE) {
      refuseFill(env, 'FillAlreadySettled', fillIds[k]!, null, `receipt ${key.toBase58()} exists`);
    }
    return { key, bump };
  });

  const orders = loadOrders(env, data.orders, ix.keys.slice(SETTLE_FIXED_ACCOUNTS), sysvar.data, ctx.unixTimestamp);
  data.fills.forEach((f, k) => settleFill(env, f, orders[f.taker]!, orders[f.maker]!, receipts[k]!));
  saveOrders(env, orders);
  save(ctx, marketKey, encodeClobMarket(env.market));
  ctx.log(`settled ${data.fills.length} fills, ${orders.filter((o) => o.state.fills > 0).length} orders`);
};
