/**
 * The parameters of the smart-wallet transaction builders as schemas, checked by the tx-build
 * client before it enqueues and by the worker before it builds (see family-b.tx-params.ts). The
 * builders parse the values themselves (a base58 key, a raw amount) and refuse with their codes.
 */
import { Type } from 'typebox';

const WalletAmount = Type.Object({ pubkey: Type.String(), amount: Type.String() });
const MarketAmount = Type.Object({ pubkey: Type.String(), amount: Type.String(), marketId: Type.String() });

export const familyCTxParams = {
  'clob.deposit': WalletAmount,
  'clob.withdraw': WalletAmount,
  'clob.split': MarketAmount,
  'clob.merge': MarketAmount,
  'clob.redeem': MarketAmount,
};
