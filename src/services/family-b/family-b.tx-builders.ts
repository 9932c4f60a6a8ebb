/**
 * Family B's transaction builders by kind, as the workers run them (see tx-build.port.ts). Each
 * takes the parameters its schema describes (family-b.tx-params.ts), so a builder whose own
 * parameter type drifts from the schema fails to compile here.
 */
import type { Static } from 'typebox';
import { buildClaimAllFees } from './claim-all-fees.builder.js';
import type { FamilyBContext } from './context.js';
import { buildCreateMarket, buildInitMints } from './create.builder.js';
import { buildCancel, buildClaimFees, buildResolve } from './creator.builders.js';
import { buildRedeem, buildRedeemAll } from './redeem.builders.js';
import type { familyBTxParams } from './family-b.tx-params.js';
import { buildBuy, buildSell } from './trade.builders.js';

type ParamsOf<K extends keyof typeof familyBTxParams> = Static<(typeof familyBTxParams)[K]>;

export function familyBTxBuilders(b: FamilyBContext) {
  return {
    'market.create': (p: ParamsOf<'market.create'>) => buildCreateMarket(b, p),
    'market.initMints': (p: ParamsOf<'market.initMints'>) => buildInitMints(b, p),
    'market.buy': (p: ParamsOf<'market.buy'>) => buildBuy(b, p),
    'market.sell': (p: ParamsOf<'market.sell'>) => buildSell(b, p),
    'market.resolve': (p: ParamsOf<'market.resolve'>) => buildResolve(b, p),
    'market.redeem': (p: ParamsOf<'market.redeem'>) => buildRedeem(b, p),
    'market.claimFees': (p: ParamsOf<'market.claimFees'>) => buildClaimFees(b, p),
    'market.cancel': (p: ParamsOf<'market.cancel'>) => buildCancel(b, p),
    'market.redeemAll': (p: ParamsOf<'market.redeemAll'>) => buildRedeemAll(b, p),
    'market.claimAllFees': (p: ParamsOf<'market.claimAllFees'>) => buildClaimAllFees(b, p),
  };
}

export type FamilyBTxBuilders = ReturnType<typeof familyBTxBuilders>;
