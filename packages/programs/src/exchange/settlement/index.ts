/** Settlement: the settle instruction's client, its accounts, and the keeper's pure transaction assembly. */
export * from './order-state.js';
export * from './fill-receipt.js';
export * from './settle-pda.js';
export * from './settle-data.js';
export * from './settle-errors.js';
export * from './settle-instruction.js';
export * from './settle-refusal.js';
export * from './fill-amounts.js';
export * from './settlement-types.js';
export * from './settlement-batch.js';
export * from './lookup-table.js';
export * from './predict.js';
