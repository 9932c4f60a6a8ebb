/**
 * One fill of a settle instruction: checks the pair against both signed orders, computes the
 * money with the engine's formulas, checks both smart wallets can pay, then moves everything
 * through real SPL Token instructions (escrow PDAs sign for the wallets, the market PDA for the
 * mints and the vault) and writes the fill's receipt.
 */
import type { PublicKey } from '@solana/web3.js';
import {
  afterFill,
  encodeFillReceipt,
  FILL_RECEIPT_SIZE,
  fillPrices,
  type FillType,
  fillTypeOf,
  type SettleFillData,
  settlementMoney,
  type SettlementMoney,
  type SettleParty,
  uuidFromSeed,
  U64_MAX,
  withinSignedLimit,
} from '@pmx/programs';
import { fail } from './guard.js';
import { programAccountInstructions } from './pda-account.js';
import { refuseFill, type LoadedOrder, type SettleEnv } from './settle-env.js';
import { moveFillFunds } from './settle-transfers.js';
import { tokenBalance } from './state.js';

interface Pair {
  id: string;
  taker: LoadedOrder;
  maker: LoadedOrder;
}

function validate(env: SettleEnv, f: SettleFillData, p: Pair): { type: FillType; prices: { takerPrice: number; makerPrice: number } } {
  const { taker, maker, id } = p;
  if (f.quantity === 0n) refuseFill(env, 'InvalidAmount', id, null, 'quantity 0');
  if (taker.owner.equals(maker.owner)) refuseFill(env, 'SelfTrade', id, null, `both orders are ${taker.owner.toBase58()}'s`);
  const type = fillTypeOf(taker.message, maker.message);
  if (!type)
    refuseFill(
      env,
      'InvalidFillType',
      id,
      null,
      `${taker.message.side} ${taker.message.outcome} cannot fill ${maker.message.side} ${maker.message.outcome}`,
    );
  const prices = fillPrices(type, taker.message, maker.message);
  if (!prices)
    refuseFill(env, 'PriceNotCrossing', id, null, `maker ${maker.message.priceBps} bps, taker limit ${taker.message.priceBps} bps`);
  for (const [party, o] of [
    ['taker', taker],
    ['maker', maker],
  ] as const) {
    if (o.state.filled + f.quantity > o.message.quantity) {
      refuseFill(env, 'OrderOverfilled', id, { party, order: o }, `${o.message.quantity - o.state.filled} left, fill of ${f.quantity}`);
    }
  }
  return { type, prices };
}

/** What each side's smart wallet must hold before the transfers (the order of transfers credits first). */
function needs(m: SettlementMoney, q: bigint, takerBuys: boolean): { taker: bigint; maker: bigint } {
  switch (m.fillType) {
    case 'direct':
      return takerBuys ? { taker: m.takerUsdc + m.takerFee, maker: q } : { taker: q, maker: m.makerUsdc - m.makerRebate };
    case 'complementary':
      return { taker: m.takerUsdc + m.takerFee, maker: m.makerUsdc - m.makerRebate };
    case 'sell_complementary':
      return { taker: q, maker: q };
  }
}

function checkBalances(env: SettleEnv, p: Pair, m: SettlementMoney, q: bigint): void {
  const need = needs(m, q, p.taker.message.side === 'buy');
  for (const [party, o] of [
    ['taker', p.taker],
    ['maker', p.maker],
  ] as [SettleParty, LoadedOrder][]) {
    const usdc = o.message.side === 'buy';
    const have = usdc
      ? tokenBalance(env.ctx, o.escrowUsdc, env.usdcMint, o.escrow)
      : tokenBalance(env.ctx, o.escrowOutcome, o.outcomeMint, o.escrow);
    if (have < need[party]) {
      refuseFill(
        env,
        'InsufficientBalance',
        p.id,
        { party, order: o },
        `needs ${need[party]} ${usdc ? 'USDC' : o.message.outcome.toUpperCase()}, has ${have}`,
      );
    }
  }
}

export function settleFill(
  env: SettleEnv,
  f: SettleFillData,
  taker: LoadedOrder,
  maker: LoadedOrder,
  receipt: { key: PublicKey; bump: number },
): void {
  const p: Pair = { id: uuidFromSeed(f.fillUuid), taker, maker };
  const { type, prices } = validate(env, f, p);
  const m = settlementMoney(
    type,
    { message: taker.message, totals: taker.state },
    { message: maker.message, totals: maker.state },
    f.quantity,
    prices,
    env.fees,
  );
  const nextTaker = afterFill(taker.state, {
    quantity: f.quantity,
    price: prices.takerPrice,
    usdc: m.takerUsdc,
    asTaker: true,
    fee: m.takerFee,
    rebate: 0n,
  });
  const nextMaker = afterFill(maker.state, {
    quantity: f.quantity,
    price: prices.makerPrice,
    usdc: m.makerUsdc,
    asTaker: false,
    fee: 0n,
    rebate: m.makerRebate,
  });
  for (const [party, o, next] of [
    ['taker', taker, nextTaker],
    ['maker', maker, nextMaker],
  ] as const) {
    if (!withinSignedLimit(o.message, next))
      refuseFill(env, 'LimitExceeded', p.id, { party, order: o }, `${next.usdc} USDC for ${next.filled} at ${o.message.priceBps} bps`);
  }
  checkBalances(env, p, m, f.quantity);
  const sets =
    type === 'complementary'
      ? env.market.completeSets + f.quantity
      : type === 'sell_complementary'
        ? env.market.completeSets - f.quantity
        : env.market.completeSets;
  if (sets < 0n || sets > U64_MAX) fail('MathOverflow', 'complete sets');

  // The same fill twice in one instruction: the first occurrence wrote its receipt already.
  if (env.ctx.getAccount(receipt.key)?.owner.equals(env.programId)) refuseFill(env, 'FillAlreadySettled', p.id, null, 'listed twice');
  // One invoke creates the receipt and moves the funds (one internal transaction per fill).
  moveFillFunds(env, taker, maker, m, f.quantity, {
    instructions: programAccountInstructions(env.ctx, env.operator, receipt.key, FILL_RECEIPT_SIZE, env.programId),
    signer: receipt.key,
  });
  env.market = { ...env.market, completeSets: sets };
  taker.state = { ...taker.state, ...nextTaker };
  maker.state = { ...maker.state, ...nextMaker };
  env.ctx.writeAccount(receipt.key, {
    lamports: env.ctx.getAccount(receipt.key)!.lamports,
    data: encodeFillReceipt({
      fillUuid: f.fillUuid,
      market: env.marketKey,
      takerOrder: taker.key,
      makerOrder: maker.key,
      fillType: type,
      bump: receipt.bump,
      priceBps: prices.takerPrice,
      quantity: f.quantity,
      takerUsdc: m.takerUsdc,
      makerUsdc: m.makerUsdc,
      takerFee: m.takerFee,
      makerRebate: m.makerRebate,
      protocolFee: m.protocolFee,
      roundingDust: m.roundingDust,
      slot: env.ctx.slot,
      settledAt: env.ctx.unixTimestamp,
    }),
  });
  env.ctx.log(
    `fill ${p.id}: ${type} ${f.quantity} at ${prices.takerPrice} bps, taker ${m.takerUsdc} fee ${m.takerFee}, maker ${m.makerUsdc} rebate ${m.makerRebate}, protocol ${m.protocolFee} dust ${m.roundingDust}`,
  );
}
