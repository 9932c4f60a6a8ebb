/**
 * The parameters of Family B's transaction builders as schemas: the tx-build client checks a
 * request against them before it enqueues it, the worker again before it builds (the job crosses
 * processes and versions). They check the shape a route hands over (strings, integers); what the
 * values mean (a valid wallet, an amount within bounds) stays the builders' to refuse, with
 * their own error codes.
 */
import { Type } from 'typebox';

const Text = Type.String();
const MarketWallet = Type.Object({ marketId: Text, wallet: Text });
const WalletOnly = Type.Object({ wallet: Text });
const Trade = Type.Object({ marketId: Text, wallet: Text, side: Text, amount: Text, slippageBps: Type.Optional(Type.Integer()) });

export const familyBTxParams = {
  'market.create': Type.Object({
    wallet: Text,
    title: Text,
    description: Text,
    yesTicker: Text,
    noTicker: Text,
    resolutionTime: Type.Integer(),
    seedAmount: Text,
    tradeFeeBps: Type.Integer(),
  }),
  'market.initMints': MarketWallet,
  'market.buy': Trade,
  'market.sell': Trade,
  'market.resolve': Type.Object({ marketId: Text, wallet: Text, winningSide: Text }),
  'market.redeem': Type.Object({ marketId: Text, wallet: Text, side: Text }),
  'market.claimFees': MarketWallet,
  'market.cancel': MarketWallet,
  'market.redeemAll': WalletOnly,
  'market.claimAllFees': WalletOnly,
};
