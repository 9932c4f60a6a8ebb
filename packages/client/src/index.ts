/**
 * @pmx/client: a typed client for the PMX prediction-market API (see README.md). Transaction
 * helpers that need @solana/web3.js are in `@pmx/client/solana`.
 */
export { createPmxClient, type PmxClient, type PmxClientOptions, type paths } from './client.js';
export {
  PmxApiError,
  readErrorBody,
  unwrap,
  type FamilyAErrorBody,
  type FamilyBErrorBody,
  type FamilyCErrorBody,
  type PmxErrorBody,
} from './errors.js';
export type * from './api-types.js';
export { keypairSigner, signerAddress, signText, type KeypairLike, type MessageSigner } from './signing/signer.js';
export {
  encodeOrderMessage,
  nextNonce,
  orderSigningText,
  signOrder,
  ORDER_MESSAGE_LENGTH,
  type OrderFields,
  type OrderRequest,
} from './signing/order-message.js';
export {
  HeartbeatClock,
  signCancel,
  signCancelAll,
  signCancelOrders,
  signConfirmMarket,
  signHeartbeat,
  signReplace,
  unixNow,
} from './signing/messages.js';
export { base58Decode, base58Encode, fromBase64, toBase64 } from './signing/encoding.js';
export { ClobTrader, isPlacement } from './clob-trader.js';
export * from './ws/index.js';
