/**
 * @pmx/local-cluster/testing: a ledger with the reference programs loaded, funded wallets and a
 * send-and-expect helper, for tests of programs and of their clients (like solana-program-test).
 */
export * from './program-harness.js';
export * from './exchange-harness.js';
export * from './transactions.js';
export * from './probe-program.js';
