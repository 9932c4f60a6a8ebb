/**
 * The protocol-fee keeper: the protocol half of every trade fee accrues in the market account;
 * this sweep moves it to the protocol fee wallet's USDC account with `claim_protocol_fees`, sent
 * as a persisted outbound transaction signed by the protocol fee wallet.
 *
 * Exactly once per amount: the intent's idempotency key names the market and its
 * `protocolFeesClaimed` counter as the chain holds it now, so while one sweep of a market is
 * unfinished the next scan finds the same key and records nothing; once it lands the counter
 * moves and fees accrued since become the next sweep.
 */
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { Transaction, type Keypair } from '@solana/web3.js';
import { listAllMints } from '../../../db/repositories/chain-markets.repository.js';
import { associatedTokenAddress, getClaimProtocolFeesInstruction } from '@pmx/programs';
import { recordOrFindOutboundIntent } from '../outbound/outbound-intents.js';
import type { OutboundBuilder } from '../outbound/outbound.types.js';
import type { FamilyBContext } from './context.js';
import { readMarketFromChain } from './market-reader.js';

export const PROTOCOL_FEE_SWEEP = 'b-protocol-fee-sweep';

interface SweepParams {
  marketId: string;
}

export function protocolFeeSweepBuilder(ctx: FamilyBContext, protocolFee: Keypair): OutboundBuilder {
  return {
    async build(params, recentBlockhash, context) {
      const { marketId } = params as SweepParams;
      const wallet = protocolFee.publicKey;
      const usdc = associatedTokenAddress(ctx.usdcMint, wallet);
      const tx = new Transaction({ feePayer: wallet, recentBlockhash }).add(
        createAssociatedTokenAccountIdempotentInstruction(wallet, usdc, wallet, ctx.usdcMint),
        getClaimProtocolFeesInstruction({
          marketId: BigInt(marketId),
          caller: wallet,
          usdcMint: ctx.usdcMint,
          protocolFeeWallet: wallet,
          programId: ctx.programId,
        }),
        context.memo,
      );
      tx.sign(protocolFee);
      return tx.serialize();
    },
  };
}

/** Records one sweep intent per market with protocol fees due; returns the new intents' ids. */
export async function recordProtocolFeeSweeps(ctx: FamilyBContext): Promise<string[]> {
  const recorded: string[] = [];
  for (const { marketId } of await listAllMints(ctx.db)) {
    const market = await readMarketFromChain(ctx, marketId);
    if (!market) continue;
    const a = market.account;
    if (a.protocolFeesAccrued === a.protocolFeesClaimed) continue;
    const idempotencyKey = `${PROTOCOL_FEE_SWEEP}-${marketId}-${a.protocolFeesClaimed}`;
    const intent = await recordOrFindOutboundIntent(ctx.db, {
      idempotencyKey,
      purpose: PROTOCOL_FEE_SWEEP,
      params: { marketId: marketId.toString() } satisfies SweepParams,
    });
    if (intent.created) recorded.push(intent.id);
  }
  return recorded;
}
