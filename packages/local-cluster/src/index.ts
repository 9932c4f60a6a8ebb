/**
 * @pmx/local-cluster: a Solana cluster in one process, for development and tests. LiteSVM runs
 * the transactions (real SPL Token semantics) and the reference implementations of the market
 * and exchange programs; the ledger keeps every transaction and persists to a directory; the
 * JSON-RPC and PubSub servers speak Solana's protocol to any client.
 */
export * from './ledger.js';
export * from './ledger-error.js';
export * from './bootstrap.js';
export * from './cluster-endpoints.js';
export * from './faucet.js';
export * from './faults.js';
export * from './program-runtime.js';
export * from './program-accounts.js';
export * from './instructions-sysvar.js';
export * from './ed25519-precompile.js';
export type { CompiledFilter } from './rpc-params.js';
export type { StoredAccount } from './svm-accounts.js';
export type { TransactionRecord } from './transaction-record.store.js';
export { createMarketProgramHandler } from './programs/market/market.handler.js';
export { createExchangeProgramHandler } from './programs/exchange/exchange.handler.js';
