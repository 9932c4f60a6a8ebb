/**
 * @pmx/programs: the market and exchange programs as clients see them (account and instruction
 * layouts, PDAs, instruction builders, error tables), and the pure rules both the programs and
 * the daemon apply (AMM and settlement math, the signed order message, the strict Ed25519 rule).
 */
export * from './market/index.js';
export * from './exchange/index.js';
export * from './amm/index.js';
export * from './orderbook/order-types.js';
export * from './orderbook/amounts.js';
export * from './orderbook/order-message.js';
export * from './solana/pda-cache.js';
export * from './solana/ed25519-instruction.js';
export * from './solana/ed25519-strict.js';
export * from './solana/signing.js';
export * from './solana/legacy-message.js';
export * from './solana/v0-message.js';
export * from './solana/keys.js';
export * from './shared/integers.js';
export * from './solana/transaction-limits.js';
export * from './solana/base58.js';
export * from './solana/token-account.js';
