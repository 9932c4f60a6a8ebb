/**
 * The exchange program's config must exist before any orderbook market: create it once at start
 * (operator = the platform's exchange operator, fee wallet = the protocol fee wallet), and bring
 * its fee rates in line with CLOB_TAKER_FEE_BPS / CLOB_MAKER_REBATE_BPS when an operator changed
 * them. Two processes racing both try; the loser finds it done and carries on.
 */
import {
  decodeExchangeConfig,
  type ExchangeConfigAccount,
  findExchangeConfigPda,
  getExchangeInitializeInstruction,
  getExchangeSetFeesInstruction,
} from '@pmx/programs';
import { sendAndConfirmPlatformTransaction } from '../platform-transaction.js';
import type { FamilyCContext } from './context.js';

export async function readExchangeConfig(ctx: FamilyCContext): Promise<ExchangeConfigAccount | null> {
  const account = await ctx.chain.getAccount(findExchangeConfigPda(ctx.programId)[0].toBase58());
  return account ? decodeExchangeConfig(account.data) : null;
}

export async function ensureExchangeInitialized(ctx: FamilyCContext): Promise<ExchangeConfigAccount> {
  const { takerFeeBps, makerRebateBps } = ctx.fees;
  let config = await readExchangeConfig(ctx);
  if (!config) {
    const ix = getExchangeInitializeInstruction({
      operator: ctx.operator.publicKey,
      usdcMint: ctx.usdcMint,
      feeWallet: ctx.feeWallet,
      takerFeeBps,
      makerRebateBps,
      programId: ctx.programId,
    });
    try {
      const signature = await sendAndConfirmPlatformTransaction(ctx.chain, [ix], [ctx.operator]);
      ctx.log.info({ signature, program: ctx.programId.toBase58() }, 'exchange program config initialised');
    } catch (error) {
      if (!(await readExchangeConfig(ctx))) throw error; // another process initialised it meanwhile: fine
    }
    config = (await readExchangeConfig(ctx))!;
  }
  if (!config.operator.equals(ctx.operator.publicKey)) {
    throw new Error(
      `exchange program config names operator ${config.operator.toBase58()}, not this daemon's ${ctx.operator.publicKey.toBase58()}`,
    );
  }
  if (config.takerFeeBps !== takerFeeBps || config.makerRebateBps !== makerRebateBps) {
    const ix = getExchangeSetFeesInstruction({ operator: ctx.operator.publicKey, takerFeeBps, makerRebateBps, programId: ctx.programId });
    await sendAndConfirmPlatformTransaction(ctx.chain, [ix], [ctx.operator]);
    ctx.log.info({ takerFeeBps, makerRebateBps }, 'exchange fee rates updated');
    config = (await readExchangeConfig(ctx))!;
  }
  return config;
}
