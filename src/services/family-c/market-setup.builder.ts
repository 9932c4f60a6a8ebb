/**
 * The outbound builder that puts a new orderbook market on chain (`create_market`, signed and
 * paid by the operator), and its confirmation hook, which indexes the market account so the
 * catalog row turns `active`. Deterministic: a rebuild after expiry creates the same PDAs.
 */
import { TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { findClobMarketById } from '../../../db/repositories/clob-markets.repository.js';
import { getClobCreateMarketInstruction, signTransaction } from '@pmx/programs';
import type { OutboundBuilder } from '../outbound/outbound.types.js';
import type { FamilyCContext } from './context.js';
import { applyClobMarketAccount } from './market-index.service.js';

export const CLOB_MARKET_SETUP = 'clob.market.create';

export interface ClobMarketSetupParams {
  marketId: string;
}

export function clobMarketSetupBuilder(ctx: FamilyCContext): OutboundBuilder {
  return {
    async build(params, recentBlockhash, { memo }) {
      const { marketId } = params as ClobMarketSetupParams;
      const instruction = getClobCreateMarketInstruction({
        operator: ctx.operator.publicKey,
        marketUuid: marketId,
        usdcMint: ctx.usdcMint,
        programId: ctx.programId,
      });
      const message = new TransactionMessage({
        payerKey: ctx.operator.publicKey,
        recentBlockhash,
        instructions: [instruction, memo],
      }).compileToV0Message();
      const tx = new VersionedTransaction(message);
      signTransaction(tx, [ctx.operator]);
      return tx.serialize();
    },
    async onConfirmed(params) {
      const { marketId } = params as ClobMarketSetupParams;
      const row = await findClobMarketById(ctx.db, marketId);
      if (row) await applyClobMarketAccount(ctx, row, await ctx.chain.getAccount(row.market_pubkey));
    },
  };
}
