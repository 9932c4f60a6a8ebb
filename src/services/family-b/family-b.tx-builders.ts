/** Family B's transaction builders by kind, as the workers run them (see tx-build.port.ts). */
import type { BuilderResult } from './builder-result.js';
import { buildClaimAllFees } from './claim-all-fees.builder.js';
import type { FamilyBContext } from './context.js';
import { buildCreateMarket, buildInitMints } from './create.builder.js';
import { buildCancel, buildClaimFees, buildResolve } from './creator.builders.js';
import { buildRedeem, buildRedeemAll } from './redeem.builders.js';
import { buildBuy, buildSell } from './trade.builders.js';

type ParamsOf<F> = F extends (ctx: FamilyBContext, params: infer P) => Promise<BuilderResult> ? P : never;

export function familyBTxBuilders(b: FamilyBContext) {
  return {
    'market.create': (p: ParamsOf<typeof buildCreateMarket>) => buildCreateMarket(b, p),
    'market.initMints': (p: ParamsOf<typeof buildInitMints>) => buildInitMints(b, p),
    'market.buy': (p: ParamsOf<typeof buildBuy>) => buildBuy(b, p),
    'market.sell': (p: ParamsOf<typeof buildSell>) => buildSell(b, p),
    'market.resolve': (p: ParamsOf<typeof buildResolve>) => buildResolve(b, p),
    'market.redeem': (p: ParamsOf<typeof buildRedeem>) => buildRedeem(b, p),
    'market.claimFees': (p: ParamsOf<typeof buildClaimFees>) => buildClaimFees(b, p),
    'market.cancel': (p: ParamsOf<typeof buildCancel>) => buildCancel(b, p),
    'market.redeemAll': (p: ParamsOf<typeof buildRedeemAll>) => buildRedeemAll(b, p),
    'market.claimAllFees': (p: ParamsOf<typeof buildClaimAllFees>) => buildClaimAllFees(b, p),
  };
}

export type FamilyBTxBuilders = ReturnType<typeof familyBTxBuilders>;
