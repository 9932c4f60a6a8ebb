/** The pure Family C matching engine: order message codec, book, matching, money, commitments. */
export * from './types.js';
export * from '@pmx/programs';
export { OrderBook, type BookOptions, type BookSnapshot, type CancelResult, type GiveBack, type SingleCancel } from './book.js';
export { CommitmentLedger, type OwnerCommitment } from './commitments.js';
export { buyCommitment, restingCommitment, orderNeed, ceilDiv, type OrderNeed } from '@pmx/programs';
export { WOULD_TAKE, INVALID_ORDER, DUPLICATE_ORDER } from './errors.js';
export { fillHolds, ownerHolds, type HoldDelta, type OwnerHolds, type MarketHold, type RestingHold, type FillHoldInput } from './holds.js';
export * from './order-rules.js';
export { isClobMarketStatus, parseBookMarketStatus, type BookMarketStatus } from './market-status.js';
export { uncoveredOrders, type CommittedOrder, type WalletCover } from './coverage.js';
export { BatchLedger, emptyStart, type OwnerStart, type PlaceCheck } from './batch-ledger.js';
export * from './positions.js';
export * from './wallet-moves.js';
export * from './candles.js';
export * from './quote.js';
